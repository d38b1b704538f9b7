/**
 * With no owner rule, the restore routes answer only the person who started ctxshed (issue 41
 * item 1): another local user reached `GET /_ctxshed/v1/spans` and `/_ctxshed/v1/restore` on
 * 127.0.0.1 and got the elided texts the 0600 files kept from them. The other user is real here:
 * the client part runs as `nobody` (the tests run as root), and gets 401 and no content from every
 * route, with no key, a guessed key, and the key sent twice; it cannot read the key's file. The
 * owner, with the key from the state directory, gets the text, so the test can fail.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningProxy } from '../../src/proxy/start-proxy.js';
import { ScriptedClient } from '../../src/scripted/client.js';
import { toolOutput } from '../../src/scripted/tool-output.js';
import { OWNER_KEY_HEADER, ownerKeyPath, readOwnerKey } from '../../src/state/owner-key.js';
import { get, mcpCall } from '../support/gateway-calls.js';
import { startTestApi } from '../support/scripted-api.js';
import { startTestProxy, tempStateDir, testConfig, waitForWire } from '../support/test-proxy.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const MARK = 'OWNER-ONLY-TEXT';
/** `nobody` on Debian: a user that owns nothing here. */
const NOBODY = { uid: 65534, gid: 65534 };
const runsAsRoot = process.getuid?.() === 0;

async function latchedProxy(): Promise<{ dir: string; proxy: RunningProxy; handle: string }> {
  const dir = await tempStateDir();
  const upstream = await startTestApi();
  const proxy = await startTestProxy(dir, testConfig(upstream.url));
  cleanups.push(
    () => upstream.close(),
    () => proxy.close(),
  );
  const client = new ScriptedClient(proxy.url, { runTool: (_use, turn) => `${MARK} ${turn}\n${toolOutput(turn, 3000)}` });
  cleanups.push(async () => client.close());
  for (let i = 0; i < 25; i++) expect((await client.turnOnce()).status).toBe(200);
  await waitForWire(dir, 25);
  const handle = fs
    .readdirSync(path.join(dir, 'elided'))
    .find((n) => n.endsWith('.txt'))
    ?.slice(0, 64);
  expect(handle).toBeDefined();
  return { dir, proxy, handle: handle! };
}

/** What `nobody` gets for each GET (status and body), and what reading the key's file does. */
interface Probe {
  readonly answers: Array<{ target: string; headers: Record<string, string>; status: number; body: string }>;
  readonly keyRead: string;
}

/** Runs the probe as `nobody`: plain GETs to the proxy, and an attempt at the key's file. */
function probeAsNobody(base: string, keyFile: string, asks: Array<{ target: string; headers: Record<string, string> }>): Promise<Probe> {
  const script = `
const http = require('node:http');
const fs = require('node:fs');
const asks = ${JSON.stringify(asks)};
const one = (ask) => new Promise((resolve) => {
  const req = http.request(new URL(ask.target, ${JSON.stringify(base)}), { headers: ask.headers }, (res) => {
    let body = '';
    res.on('data', (c) => (body += c));
    res.on('end', () => resolve({ ...ask, status: res.statusCode, body }));
  });
  req.on('error', (e) => resolve({ ...ask, status: 0, body: String(e) }));
  req.end();
});
(async () => {
  const answers = [];
  for (const ask of asks) answers.push(await one(ask));
  let keyRead = 'read';
  try { fs.readFileSync(${JSON.stringify(keyFile)}); } catch (e) { keyRead = e.code; }
  process.stdout.write(JSON.stringify({ answers, keyRead }));
})();
`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script], { ...NOBODY, cwd: '/', env: { PATH: '/usr/bin:/bin' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as Probe) : reject(new Error(`the probe as nobody exited ${String(code)}: ${err}`))));
  });
}

describe('the restore routes with no owner rule', () => {
  it.skipIf(!runsAsRoot)('should answer another local user 401 and no content on every route, and the owner with the key its text', async () => {
    const { dir, proxy, handle } = await latchedProxy();
    const key = (await readOwnerKey(dir))!;
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(fs.statSync(ownerKeyPath(dir)).mode & 0o777).toBe(0o600);
    const routes = ['/_ctxshed/v1/spans', `/_ctxshed/v1/restore?handle=${handle}`, `/_ctxshed/v1/restore?handle=${handle.slice(0, 12)}`];
    const tries: Array<Record<string, string>> = [{}, { [OWNER_KEY_HEADER]: '0'.repeat(64) }, { 'x-api-key': 'sk-ant-test-000' }];

    const probe = await probeAsNobody(
      proxy.url,
      ownerKeyPath(dir),
      routes.flatMap((target) => tries.map((headers) => ({ target, headers }))),
    );

    expect(probe.keyRead).toBe('EACCES');
    expect(probe.answers).toHaveLength(routes.length * tries.length);
    for (const answer of probe.answers) {
      expect(answer.status, `${answer.target} ${JSON.stringify(answer.headers)}`).toBe(401);
      expect(answer.body).not.toContain(MARK);
      expect(answer.body).not.toContain(handle);
      expect(answer.body).not.toContain(dir);
    }
    // The owner, who can read the key: the same routes answer.
    const spans = await get(proxy.url, '/_ctxshed/v1/spans', { [OWNER_KEY_HEADER]: key });
    const restored = await get(proxy.url, `/_ctxshed/v1/restore?handle=${handle}`, { [OWNER_KEY_HEADER]: key });
    expect([spans.status, restored.status]).toEqual([200, 200]);
    expect(spans.body).toContain(handle);
    expect(Buffer.from(JSON.parse(restored.body).bytes, 'base64').toString('utf8')).toContain(MARK);
  });

  it('should refuse the key sent twice, and name no path in the health route', async () => {
    const { dir, proxy, handle } = await latchedProxy();
    const key = (await readOwnerKey(dir))!;

    const twice = await new Promise<number>((resolve, reject) => {
      // node's client writes an array as two header lines.
      import('node:http').then(({ default: http }) => {
        const req = http.request(new URL(`/_ctxshed/v1/restore?handle=${handle}`, proxy.url), { headers: { [OWNER_KEY_HEADER]: [key, key] } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      }, reject);
    });
    const health = await get(proxy.url, '/_ctxshed/health', {});

    expect(twice).toBe(401);
    expect(health.status).toBe(200);
    expect(health.body).not.toContain(dir);
    expect(health.body).not.toContain('/');
  });

  it('should give the restore tool over a ctxshed on this machine the text, with the key of --state', async () => {
    const { dir, proxy, handle } = await latchedProxy();

    const withKey = await mcpCall(proxy.url, {}, 'restore', { handle }, ['--state', dir]);
    const without = await mcpCall(proxy.url, {}, 'restore', { handle }, ['--state', await tempStateDir()]);

    expect(withKey.isError).not.toBe(true);
    expect(withKey.content[0]?.text).toContain(MARK);
    expect(without.isError).toBe(true);
    expect(without.content[0]?.text).not.toContain(MARK);
  });
});
