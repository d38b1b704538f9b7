/**
 * Request heads the proxy reads one way only (issue 41 item 8): a second Host line or a Host that
 * is no host (400, RFC 9112 §3.2), an absolute-form target naming another server (421, §3.2.2),
 * and a repeated owner or credential header under an owner rule (401). Pure: the guard and the
 * owner rule, on facts as the node adapter gives them.
 */
import { describe, expect, it } from 'vitest';
import { decideClientAccess, type ClientFacts } from '../../src/proxy/client-guard.js';
import { headerLines } from '../../src/proxy/header-lines.js';
import { ownerOf } from '../../src/proxy/owner-rule.js';

const AGENT: ClientFacts = { host: '127.0.0.1:8787', origin: undefined, target: '/v1/messages' };

describe('decideClientAccess, on a malformed head', () => {
  it.each([false, true])('should refuse two Host lines with a 400 invalid_host (owner rule %s)', (anyHost) => {
    expect(decideClientAccess({ ...AGENT, hostLines: 2, anyHost })).toMatchObject({ kind: 'refused', reason: 'invalid_host', status: 400 });
  });

  it.each(['localhost:99999', '127.0.0.1:65536', '[::1]:70000'])('should refuse Host %s, a port no socket has, with a 400', (host) => {
    expect(decideClientAccess({ ...AGENT, host })).toMatchObject({ kind: 'refused', reason: 'invalid_host', status: 400 });
    expect(decideClientAccess({ ...AGENT, host, anyHost: true })).toMatchObject({ kind: 'refused', reason: 'invalid_host', status: 400 });
  });

  it.each(['gw.example:8787, evil.example', 'user@gw.example', 'gw example', ''])(
    'should refuse Host %j under an owner rule, where any name is served',
    (host) => {
      expect(decideClientAccess({ ...AGENT, host, anyHost: true })).toMatchObject({ kind: 'refused', reason: 'invalid_host', status: 400 });
    },
  );

  it.each(['localhost:65535', '127.0.0.1:8787', '[::1]:1', 'localhost'])('should serve Host %s', (host) => {
    expect(decideClientAccess({ ...AGENT, host, hostLines: 1 })).toEqual({ kind: 'allowed' });
  });

  it.each([
    ['another server', 'http://evil.example/v1/messages'],
    ['another server, on a port', 'https://evil.example:443/v1/messages?beta=true'],
    ['user info before a loopback name', 'http://evil.example@127.0.0.1:8787/v1/messages'],
    ['no authority', 'http:///v1/messages'],
  ])('should refuse an absolute-form target naming %s with a 421 absolute_target, whatever the owner rule', (_what, target) => {
    for (const anyHost of [false, true]) {
      expect(decideClientAccess({ ...AGENT, target, anyHost })).toMatchObject({ kind: 'refused', reason: 'absolute_target', status: 421 });
    }
  });

  it.each(['http://127.0.0.1:8787/v1/messages', 'http://localhost/_ctxshed/metrics'])(
    'should serve the absolute form %s, which names this machine',
    (target) => {
      expect(decideClientAccess({ ...AGENT, target })).toEqual({ kind: 'allowed' });
    },
  );
});

describe('headerLines', () => {
  it('should count the raw lines of a header in any case', () => {
    expect(headerLines('host', {}, ['Host', 'a', 'x-other', 'b', 'HOST', 'c'])).toBe(2);
  });

  it('should fall back on the parsed headers without raw lines', () => {
    expect(headerLines('host', { host: 'a' }, undefined)).toBe(1);
    expect(headerLines('set-cookie', { 'set-cookie': ['a', 'b'] }, undefined)).toBe(2);
    expect(headerLines('host', {}, undefined)).toBe(0);
  });
});

describe('ownerOf, with a header sent twice', () => {
  it('should name no owner when the owner header comes twice (node joins it: "bob, alice")', () => {
    const rule = { kind: 'header', name: 'X-Team-User' } as const;
    const owner = ownerOf({ 'x-team-user': 'bob, alice' }, rule, ['X-Team-User', 'bob', 'X-Team-User', 'alice']);

    expect(owner).toMatchObject({ kind: 'missing' });
    expect(owner.kind === 'missing' && owner.message).toMatch(/X-Team-User more than once/);
    expect(ownerOf({ 'x-team-user': 'bob' }, rule, ['X-Team-User', 'bob'])).toMatchObject({ kind: 'owner' });
  });

  it.each([
    ['x-api-key', { 'x-api-key': 'k1, k2' }, ['x-api-key', 'k1', 'x-api-key', 'k2']],
    // node keeps the first authorization and drops the second: only the raw lines tell.
    ['authorization', { authorization: 'Bearer t1' }, ['Authorization', 'Bearer t1', 'Authorization', 'Bearer t2']],
  ])('should name no owner when %s comes twice under --owner-from credential', (_name, headers, raw) => {
    expect(ownerOf(headers, { kind: 'credential' }, raw)).toMatchObject({ kind: 'missing' });
  });
});
