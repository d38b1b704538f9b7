import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findStubs } from '../../src/core/epochs/inflate.js';
import { indexTranscript } from '../../src/core/messages/transcript-index.js';
import { ownerIdOf, type OwnerRule } from '../../src/proxy/owner-rule.js';
import type { RunningProxy } from '../../src/proxy/start-proxy.js';
import { ScriptedClient } from '../../src/scripted/client.js';
import type { MessagesApi } from '../../src/scripted/messages-api.js';
import { isMessagesRequest } from '../../src/scripted/received-request.js';
import { inflateFromState } from '../../src/state/inflate-from-state.js';
import { layoutPaths } from '../../src/state/layout.js';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { verifyState } from '../../src/state/verify-state.js';
import { fsStore } from '../../src/store/index.js';
import { startTestApi } from '../support/scripted-api.js';
import { startTestProxy, tempStateDir, testConfig, waitForWire } from '../support/test-proxy.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const KEY_A = 'sk-ant-owner-a-0001';
const KEY_B = 'sk-ant-owner-b-0002';

async function setUp(
  ownerRule: OwnerRule,
  options: { readonly storeGiven?: boolean } = {},
): Promise<{ dir: string; upstream: MessagesApi; proxy: RunningProxy }> {
  const dir = await tempStateDir();
  const upstream = await startTestApi();
  // `serve` hands the proxy the store it opened; the engines must still be one per owner.
  const store = options.storeGiven === true ? { store: fsStore(await openStateDir(dir)) } : {};
  const proxy = await startTestProxy(dir, testConfig(upstream.url), { ownerRule, ...store });
  cleanups.push(
    () => upstream.close(),
    () => proxy.close(),
  );
  return { dir, upstream, proxy };
}

function stubShas(body: Buffer): string[] {
  const indexed = indexTranscript(body);
  if (indexed.kind !== 'indexed') throw new Error('does not index');
  return findStubs(body, indexed.index).map((f) => f.stub.sha256);
}

function names(dir: string): string[] {
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
}

describe('owners: --owner-from credential', () => {
  it.each([false, true])(
    'should give the same transcript from two owners two conversations, each in its own state, none in the root (store given: %s)',
    async (storeGiven) => {
      const { dir, upstream, proxy } = await setUp({ kind: 'credential' }, { storeGiven });
      const a = new ScriptedClient(proxy.url, { headers: { 'x-api-key': KEY_A } });
      const b = new ScriptedClient(proxy.url, { headers: { 'x-api-key': KEY_B } });
      for (let i = 0; i < 30; i++) {
        expect((await a.turnOnce()).status).toBe(200);
        expect((await b.turnOnce()).status).toBe(200);
      }
      await waitForWire(dir, 60);
      const ownerA = path.join(dir, 'owners', ownerIdOf(KEY_A));
      const ownerB = path.join(dir, 'owners', ownerIdOf(KEY_B));
      expect(names(path.join(dir, 'conversations'))).toEqual([]);
      expect(names(path.join(dir, 'elided'))).toEqual([]);
      expect(names(path.join(ownerA, 'conversations')).length).toBe(1);
      // The same transcript: the same key, in two places.
      expect(names(path.join(ownerB, 'conversations'))).toEqual(names(path.join(ownerA, 'conversations')));
      expect(fs.statSync(ownerA).mode & 0o777).toBe(0o700);
      expect(fs.statSync(path.join(dir, 'owners')).mode & 0o777).toBe(0o700);
      // A gateway's stubs name the restore tool, never a path on its disk; every text they name is in its owner's state.
      const bodies = upstream.requests.filter(isMessagesRequest);
      const ofA = bodies.filter((r) => r.headers['x-api-key'] === KEY_A).map((r) => r.body);
      const ofB = bodies.filter((r) => r.headers['x-api-key'] === KEY_B).map((r) => r.body);
      const lastA = ofA.at(-1)!.toString('utf8');
      expect(stubShas(ofA.at(-1)!).length).toBeGreaterThan(0);
      expect(lastA).toContain("call ctxshed's restore tool with this sha256");
      expect(lastA).not.toContain(dir);
      for (const sha of stubShas(ofA.at(-1)!)) expect(fs.existsSync(path.join(ownerA, 'elided', `${sha}.txt`))).toBe(true);
      for (const sha of stubShas(ofB.at(-1)!)) expect(fs.existsSync(path.join(ownerB, 'elided', `${sha}.txt`))).toBe(true);
      // The owner id is a hash: the credential is nowhere in the state.
      expect(JSON.stringify(names(path.join(dir, 'owners')))).not.toContain(KEY_A);
      expect(fs.readFileSync(path.join(dir, 'wire.jsonl'), 'utf8')).not.toContain(KEY_A);
      // Lossless behind a gateway too: every body A's upstream got inflates from A's state to what A sent.
      for (const [i, body] of ofA.entries()) {
        const inflated = await inflateFromState(layoutPaths(ownerA), body);
        expect(Buffer.from(inflated.body).equals(a.sent[i]!)).toBe(true);
      }
      // owners/ is no stray in the root, and each owner's directory verifies as a state directory of its own.
      expect((await verifyState(dir)).problems).toEqual([]);
      expect((await verifyState(ownerA)).problems).toEqual([]);
    },
  );

  it('should refuse a request with no credential with a 401, forward nothing, and record why', async () => {
    const { dir, upstream, proxy } = await setUp({ kind: 'credential' });
    const res = await post(proxy.url, '/v1/messages', { 'anthropic-version': '2023-06-01' }, '{"model":"m","messages":[]}');
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body).error.type).toBe('authentication_error');
    expect(upstream.requests.length).toBe(0);
    const wire = await waitForWire(dir, 1);
    expect(wire[0]!['refused']).toBe('no_owner');
  });

  it('should serve a request that names the proxy by a name other than loopback (the bind beyond loopback)', async () => {
    const { upstream, proxy } = await setUp({ kind: 'credential' });
    const client = new ScriptedClient(proxy.url, { headers: { 'x-api-key': KEY_A, host: 'gateway.team.example:8787' } });
    expect((await client.turnOnce()).status).toBe(200);
    expect(upstream.requests.length).toBe(1);
  });
});

describe('owners: --owner-header', () => {
  it('should key by the header, strip it before forwarding, and refuse a request without it', async () => {
    const { dir, upstream, proxy } = await setUp({ kind: 'header', name: 'x-team-user' });
    const a = new ScriptedClient(proxy.url, { headers: { 'x-team-user': 'alice@example.com' } });
    for (let i = 0; i < 25; i++) expect((await a.turnOnce()).status).toBe(200);
    expect(upstream.requests.every((r) => r.headers['x-team-user'] === undefined)).toBe(true);
    expect(names(path.join(dir, 'owners', ownerIdOf('alice@example.com'), 'conversations')).length).toBe(1);
    const bare = new ScriptedClient(proxy.url);
    expect((await bare.turnOnce()).status).toBe(401);
    expect(upstream.requests.length).toBe(25);
  });
});

describe('owners: off by default', () => {
  it('should keep the single-user layout: conversations in the root, no owners folder', async () => {
    const { dir, upstream, proxy } = await setUp({ kind: 'none' });
    const a = new ScriptedClient(proxy.url, { headers: { 'x-api-key': KEY_A } });
    for (let i = 0; i < 30; i++) await a.turnOnce();
    await waitForWire(dir, 30);
    expect(names(path.join(dir, 'conversations')).length).toBe(1);
    expect(fs.existsSync(path.join(dir, 'owners'))).toBe(false);
    // The single-user stubs name the file, as they always did.
    const last = upstream.requests.filter(isMessagesRequest).at(-1)!.body.toString('utf8');
    expect(last).toContain(`${path.join(fs.realpathSync(dir), 'elided')}/`);
    expect(last).not.toContain('ctxshed gateway');
  });
});

function post(base: string, target: string, headers: Record<string, string>, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(target, base), { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
