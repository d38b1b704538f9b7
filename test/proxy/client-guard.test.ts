import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decideClientAccess, type ClientFacts } from '../../src/proxy/client-guard.js';

const PORT = 41485;
const AGENT: ClientFacts = { host: `127.0.0.1:${PORT}`, origin: undefined };

interface CapturedHead {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
}

/** Every request head a real client was captured sending (Claude Code, Codex), by file. */
function capturedHeads(): Array<[string, CapturedHead]> {
  const dirs = [new URL('../fixtures/real/headers/', import.meta.url), new URL('../fixtures/real-openai/', import.meta.url)];
  return dirs.flatMap((dir) =>
    fs
      .readdirSync(dir)
      .filter((name) => name.endsWith('.headers.json'))
      .map((name): [string, CapturedHead] => [name, JSON.parse(fs.readFileSync(new URL(name, dir), 'utf8')) as CapturedHead]),
  );
}

describe('decideClientAccess', () => {
  it("should serve an agent naming 127.0.0.1 with the proxy's port and sending no Origin", () => {
    expect(decideClientAccess(AGENT)).toEqual({ kind: 'allowed' });
  });

  it.each([`localhost:${PORT}`, `LOCALHOST:${PORT}`, `localhost.:${PORT}`, `[::1]:${PORT}`, `127.0.0.2:${PORT}`])(
    'should serve the loopback name %s',
    (host) => {
      expect(decideClientAccess({ ...AGENT, host })).toEqual({ kind: 'allowed' });
    },
  );

  it('should serve every request head captured from Claude Code and Codex, at the port it named', () => {
    const heads = capturedHeads();

    expect(heads.length).toBeGreaterThanOrEqual(10);
    for (const [name, head] of heads) {
      const host = head.headers['host']!;
      expect(
        Object.keys(head.headers).map((k) => k.toLowerCase()),
        name,
      ).not.toContain('origin');
      expect(decideClientAccess({ host, origin: head.headers['origin'], fetchSite: head.headers['sec-fetch-site'] }), name).toEqual({ kind: 'allowed' });
    }
  });

  it.each([
    ['the DNS-rebinding name of the reproduction', `rebind.attacker.example:${PORT}`],
    ['a name without a port', 'rebind.attacker.example'],
    ['a name that resolves to 127.0.0.1 in public DNS', `127.0.0.1.nip.io:${PORT}`],
    ['a *.localhost name', `app.localhost:${PORT}`],
    ['no Host at all', undefined],
    ['an empty Host', ''],
    ['a Host with an empty port', '127.0.0.1:'],
    ['a Host with user info', `user@127.0.0.1:${PORT}`],
    ['two hosts', `127.0.0.1:${PORT}, evil.example`],
  ])('should refuse %s as foreign_host', (_what, host) => {
    const access = decideClientAccess({ ...AGENT, host });

    expect(access).toMatchObject({ kind: 'refused', reason: 'foreign_host' });
    expect(access.kind === 'refused' && access.message).toMatch(/^refused: Host .* does not name this machine's loopback/);
  });

  it.each([
    ['another port (an ssh -L forward, a docker -p mapping, a recording hop that passes Host on)', `127.0.0.1:${PORT + 1}`],
    ['localhost on another port', 'localhost:9000'],
    ['[::1] on another port', '[::1]:8080'],
    ['a loopback name without a port (port 80)', '127.0.0.1'],
    ['localhost without a port (port 80)', 'localhost'],
  ])('should serve a loopback name on any port: %s', (_what, host) => {
    expect(decideClientAccess({ ...AGENT, host })).toEqual({ kind: 'allowed' });
  });

  it.each([
    ['an <img> or a link from another site', 'cross-site'],
    ['a page on another loopback port (the same site)', 'same-site'],
    ['in capitals', 'Cross-Site'],
    ['two values', 'same-origin, cross-site'],
    ['a value no browser sends', 'elsewhere'],
  ])('should refuse Sec-Fetch-Site from %s as browser_fetch_site, with no Origin and a loopback Host', (_what, fetchSite) => {
    const access = decideClientAccess({ ...AGENT, fetchSite });

    expect(access).toMatchObject({ kind: 'refused', reason: 'browser_fetch_site' });
    expect(access.kind === 'refused' && access.message).toContain(JSON.stringify(fetchSite));
  });

  it.each(['same-origin', 'none'])('should serve Sec-Fetch-Site %s (not another site)', (fetchSite) => {
    expect(decideClientAccess({ ...AGENT, fetchSite })).toEqual({ kind: 'allowed' });
  });

  it.each([
    ['a cross-origin page', 'http://rebind.attacker.example'],
    ['a page served from loopback itself', `http://127.0.0.1:${PORT}`],
    ['an opaque origin (sandboxed frame, file: page)', 'null'],
    ['an empty Origin', ''],
    ['a browser extension', 'chrome-extension://abcdef'],
  ])('should refuse %s as browser_origin, even with a loopback Host', (_what, origin) => {
    const access = decideClientAccess({ ...AGENT, origin });

    expect(access).toMatchObject({ kind: 'refused', reason: 'browser_origin' });
    expect(access.kind === 'refused' && access.message).toContain(JSON.stringify(origin));
  });

  it('should name the Host first when both are wrong, as the reproduction sends them', () => {
    const access = decideClientAccess({ host: `rebind.attacker.example:${PORT}`, origin: 'http://rebind.attacker.example', fetchSite: 'cross-site' });

    expect(access).toMatchObject({ kind: 'refused', reason: 'foreign_host' });
  });
});
