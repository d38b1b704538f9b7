import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { healthDescriber } from '../../src/proxy/health-route.js';
import { decideOwnRoute, HEALTH_PATH } from '../../src/proxy/own-routes.js';

describe('healthDescriber', () => {
  it('should report ok and a writable state directory while the state health is good', async () => {
    // Arrange
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'health-'));
    const describe = healthDescriber({ version: '1.2.3', startedAt: performance.now(), stateDir: dir, health: { failing: false } });

    // Act
    const report = await describe();

    // Assert
    expect(report).toMatchObject({ ok: true, version: '1.2.3', stateWritable: true });
    expect(JSON.stringify(report)).not.toContain(dir);
  });

  it('should report not ok while the state health says a write failed (a full disk still lets access() pass)', async () => {
    // Arrange
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'health-'));
    const describe = healthDescriber({ version: '1.2.3', startedAt: performance.now(), stateDir: dir, health: { failing: true } });

    // Act
    const report = await describe();

    // Assert
    expect(report).toMatchObject({ ok: false, stateWritable: false });
  });

  it('should report not ok when the state directory is gone', async () => {
    // Arrange
    const dir = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'health-')), 'missing');
    const describe = healthDescriber({ version: '1.2.3', startedAt: performance.now(), stateDir: dir, health: { failing: false } });

    // Act
    const report = await describe();

    // Assert
    expect(report).toMatchObject({ ok: false, stateWritable: false });
  });
});

describe('decideOwnRoute, health', () => {
  it('should serve GET /_ctxshed/health to a loopback client naming a loopback host, and only GET', () => {
    const local = { method: 'GET', path: HEALTH_PATH, remoteAddress: '127.0.0.1', host: 'localhost:1' };

    expect(decideOwnRoute(local)).toEqual({ kind: 'health' });
    expect(decideOwnRoute({ ...local, method: 'POST' })).toMatchObject({ kind: 'refused', status: 404 });
    expect(decideOwnRoute({ ...local, host: 'evil.example:1' })).toMatchObject({ kind: 'refused', status: 403 });
  });
});
