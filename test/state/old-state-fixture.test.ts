/** State written by an earlier version (test/fixtures/state-v1/README.md) still verifies and inflates. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { inflateFromState } from '../../src/state/inflate-from-state.js';
import { layoutPaths } from '../../src/state/layout.js';
import { verifyState } from '../../src/state/verify-state.js';
import { runCtxshed } from '../support/cli-process.js';
import { tempStateDir } from '../support/test-proxy.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/state-v1/', import.meta.url));

/** A private copy: verify may note what it read, and git does not keep the state's 0600 modes. */
async function copyOfFixture(): Promise<string> {
  const dir = await tempStateDir('ctxshed-state-v1-');
  await fs.cp(path.join(FIXTURE, 'state'), dir, { recursive: true });
  return dir;
}

describe('a state directory of the v1 record format', () => {
  it('should verify with no problems, both conversations and both kinds checked', async () => {
    const report = await verifyState(await copyOfFixture());

    expect(report.problems).toEqual([]);
    expect(report.checked.conversations).toBe(2);
    expect(report.checked.spans).toBe(2);
    expect(report.checked.blocks).toBeGreaterThan(0);
  });

  it.each(['rescue', 'shed'])('should inflate the %s body the API got back to the bytes the client sent', async (mode) => {
    const dir = await copyOfFixture();
    const received = await fs.readFile(path.join(FIXTURE, `${mode}-received.json`));
    const sent = await fs.readFile(path.join(FIXTURE, `${mode}-sent.json`));
    expect(received.equals(sent)).toBe(false);

    const inflated = await inflateFromState(layoutPaths(dir), received);

    expect(Buffer.from(inflated.body).equals(sent)).toBe(true);
    expect(inflated.stubs + inflated.spans).toBeGreaterThan(0);
  });

  it('should pass ctxshed verify and ctxshed inflate, the commands a person runs', async () => {
    const dir = await copyOfFixture();

    const verified = await runCtxshed(['verify', '--state', dir, '--json']);
    const inflated = await runCtxshed(['inflate', path.join(FIXTURE, 'shed-received.json'), '--state', dir]);

    expect(verified.code).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true, problems: [] });
    expect(inflated.code).toBe(0);
    expect(inflated.stdout).toBe(await fs.readFile(path.join(FIXTURE, 'shed-sent.json'), 'utf8'));
  });
});
