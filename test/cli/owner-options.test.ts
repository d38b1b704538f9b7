import { describe, expect, it } from 'vitest';
import { bindFrom } from '../../src/cli/owner-options.js';
import { ownerIdOf, ownerOf } from '../../src/proxy/owner-rule.js';
import { startProxy } from '../../src/proxy/start-proxy.js';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { runCtxshed } from '../support/cli-process.js';
import { tempStateDir, testConfig } from '../support/test-proxy.js';

describe('the bind rule', () => {
  it('should refuse a host beyond loopback without an owner rule, as a usage error', () => {
    expect(() => bindFrom({ host: '0.0.0.0' })).toThrow(/--owner-from credential or --owner-header/);
    expect(() => bindFrom({ host: '192.0.2.7' })).toThrow(expect.objectContaining({ exitCode: 2 }));
  });

  it('should take loopback without a rule, and any host with one', () => {
    expect(bindFrom({})).toEqual({ host: '127.0.0.1', ownerRule: { kind: 'none' } });
    expect(bindFrom({ host: 'localhost' }).host).toBe('localhost');
    expect(bindFrom({ host: '::1' }).host).toBe('::1');
    expect(bindFrom({ host: '0.0.0.0', ownerFrom: 'credential' }).ownerRule).toEqual({ kind: 'credential' });
    expect(bindFrom({ host: '0.0.0.0', ownerHeader: 'X-Team-User' }).ownerRule).toEqual({ kind: 'header', name: 'x-team-user' });
  });

  it('should refuse both rules at once, an unknown --owner-from, and a header the request needs as it is', () => {
    expect(() => bindFrom({ ownerFrom: 'credential', ownerHeader: 'x-u' })).toThrow(/not both/);
    expect(() => bindFrom({ ownerFrom: 'ip' })).toThrow(/takes credential/);
    expect(() => bindFrom({ ownerHeader: 'authorization' })).toThrow(/cannot be authorization/);
    expect(() => bindFrom({ ownerHeader: 'bad header' })).toThrow(/header name/);
  });

  it('should refuse the bind in startProxy too, whoever calls it', async () => {
    const state = await openStateDir(await tempStateDir());
    await expect(startProxy(testConfig('http://127.0.0.1:9'), state, 0, { host: '0.0.0.0', log: () => undefined })).rejects.toThrow(/refusing to bind/);
  });

  it('should exit 2 from serve with a clear message, and start nothing', async () => {
    const result = await runCtxshed(['serve', '--host', '0.0.0.0', '--state', await tempStateDir()]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--host 0.0.0.0 would serve other machines');
  });
});

describe('ownerOf', () => {
  it('should hash x-api-key, else a Bearer token, to 32 hex digits, never the credential', () => {
    expect(ownerOf({ 'x-api-key': 'sk-1' }, { kind: 'credential' })).toEqual({ kind: 'owner', ownerId: ownerIdOf('sk-1') });
    expect(ownerIdOf('sk-1')).toMatch(/^[0-9a-f]{32}$/);
    expect(ownerOf({ authorization: 'Bearer tok-9' }, { kind: 'credential' })).toEqual({ kind: 'owner', ownerId: ownerIdOf('tok-9') });
    expect(ownerOf({ 'x-api-key': 'sk-1' }, { kind: 'none' })).toEqual({ kind: 'owner', ownerId: '' });
  });

  it('should find no owner without a credential, with a Basic one, or with the header repeated', () => {
    expect(ownerOf({}, { kind: 'credential' }).kind).toBe('missing');
    expect(ownerOf({ authorization: 'Basic abc' }, { kind: 'credential' }).kind).toBe('missing');
    expect(ownerOf({ 'x-u': ['a', 'b'] }, { kind: 'header', name: 'x-u' }).kind).toBe('missing');
    expect(ownerOf({ 'x-u': '  ' }, { kind: 'header', name: 'x-u' }).kind).toBe('missing');
  });
});
