/**
 * Restores over the gateway, and isolation between owners (docs/team.md): owner B asks for owner
 * A's text by every route and tool and gets nothing, and no refusal names any content.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GATEWAY_UNKNOWN_HANDLE } from '../../src/core/gateway-routes.js';
import { ownerIdOf } from '../../src/proxy/owner-rule.js';
import type { RunningProxy } from '../../src/proxy/start-proxy.js';
import { ScriptedClient } from '../../src/scripted/client.js';
import type { MessagesApi } from '../../src/scripted/messages-api.js';
import { isMessagesRequest } from '../../src/scripted/received-request.js';
import { toolOutput } from '../../src/scripted/tool-output.js';
import { get, mcpCall } from '../support/gateway-calls.js';
import { startTestApi } from '../support/scripted-api.js';
import { startTestProxy, tempStateDir, testConfig, waitForWire } from '../support/test-proxy.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const KEY_A = 'sk-ant-gateway-a-0001';
const KEY_B = 'sk-ant-gateway-b-0002';
const MARK = 'ALPHA-PRIVATE';

interface Setting {
  readonly dir: string;
  readonly upstream: MessagesApi;
  readonly proxy: RunningProxy;
  /** A's elided shas, and the texts behind them. */
  readonly handles: string[];
}

async function setUp(): Promise<Setting> {
  const dir = await tempStateDir();
  const upstream = await startTestApi();
  const proxy = await startTestProxy(dir, testConfig(upstream.url), { ownerRule: { kind: 'credential' } });
  cleanups.push(
    () => upstream.close(),
    () => proxy.close(),
  );
  const a = new ScriptedClient(proxy.url, { headers: { 'x-api-key': KEY_A }, runTool: (_use, turn) => `${MARK} ${turn}\n${toolOutput(turn, 3000)}` });
  for (let i = 0; i < 30; i++) expect((await a.turnOnce()).status).toBe(200);
  await waitForWire(dir, 30);
  const elided = path.join(dir, 'owners', ownerIdOf(KEY_A), 'elided');
  const handles = fs.readdirSync(elided).flatMap((n) => (n.endsWith('.txt') ? [n.slice(0, 64)] : []));
  expect(handles.length).toBeGreaterThan(0);
  return { dir, upstream, proxy, handles };
}

describe('the restore routes', () => {
  it('should give A its text, and B for the same handle the same 404 as a handle nobody has', async () => {
    const { proxy, handles } = await setUp();
    const mine = await get(proxy.url, `/_ctxshed/v1/restore?handle=${handles[0]}`, { 'x-api-key': KEY_A });
    expect(mine.status).toBe(200);
    expect(Buffer.from(JSON.parse(mine.body).bytes, 'base64').toString('utf8')).toContain(MARK);
    const theirs = await get(proxy.url, `/_ctxshed/v1/restore?handle=${handles[0]}`, { 'x-api-key': KEY_B });
    const nobody = await get(proxy.url, `/_ctxshed/v1/restore?handle=${'e'.repeat(64)}`, { 'x-api-key': KEY_B });
    expect(theirs.status).toBe(404);
    expect(JSON.parse(theirs.body)).toEqual(JSON.parse(nobody.body));
    expect(JSON.parse(theirs.body).error.message).toContain(GATEWAY_UNKNOWN_HANDLE);
    expect(theirs.body).not.toContain(handles[0]);
    // A prefix does no better.
    expect((await get(proxy.url, `/_ctxshed/v1/restore?handle=${handles[0]!.slice(0, 12)}`, { 'x-api-key': KEY_B })).status).toBe(404);
    // No owner at all: 401, nothing else.
    const none = await get(proxy.url, `/_ctxshed/v1/restore?handle=${handles[0]}`, {});
    expect(none.status).toBe(401);
    expect(none.body).not.toContain(MARK);
  });

  it("should list A's handles to A and nothing to B", async () => {
    const { proxy, handles } = await setUp();
    const mine = JSON.parse((await get(proxy.url, '/_ctxshed/v1/spans', { 'x-api-key': KEY_A })).body);
    expect(mine.conversations.flatMap((c: { blocks: Array<{ sha256: string }> }) => c.blocks.map((b) => b.sha256))).toEqual(expect.arrayContaining(handles));
    const theirs = await get(proxy.url, '/_ctxshed/v1/spans', { 'x-api-key': KEY_B });
    expect(JSON.parse(theirs.body)).toEqual({ conversations: [], unreadable: [] });
  });

  it('should answer the routes from beyond loopback by the Host a team names the gateway with', async () => {
    const { proxy, handles } = await setUp();
    const res = await get(proxy.url, `/_ctxshed/v1/restore?handle=${handles[0]}`, { 'x-api-key': KEY_A, host: 'ctxshed.team.example' });
    expect(res.status).toBe(200);
    // The metrics and health routes stay loopback-only, whatever the rule.
    expect((await get(proxy.url, '/_ctxshed/metrics', { 'x-api-key': KEY_A, host: 'ctxshed.team.example' })).status).toBe(403);
  });

  it('should keep owner text out of the metrics, health and wire log: counts only', async () => {
    const { dir, proxy } = await setUp();
    const metrics = await get(proxy.url, '/_ctxshed/metrics', {});
    const health = await get(proxy.url, '/_ctxshed/health', {});
    for (const text of [metrics.body, health.body, fs.readFileSync(path.join(dir, 'wire.jsonl'), 'utf8')]) {
      expect(text).not.toContain(MARK);
      expect(text).not.toContain(KEY_A);
      expect(text).not.toContain(ownerIdOf(KEY_A));
    }
  });

  it("should give B nothing of A's when B's transcript names A's stub paths", async () => {
    const { dir, upstream, proxy, handles } = await setUp();
    const paths = handles.map((h) => path.join(dir, 'owners', ownerIdOf(KEY_A), 'elided', `${h}.txt`));
    const b = new ScriptedClient(proxy.url, { headers: { 'x-api-key': KEY_B }, prompt: `Please read ${paths.join(' and ')}` });
    const before = upstream.requests.length;
    for (let i = 0; i < 25; i++) {
      const turn = await b.turnOnce();
      expect(turn.body.toString('utf8')).not.toContain(MARK);
    }
    for (const r of upstream.requests.slice(before).filter(isMessagesRequest)) expect(r.body.toString('utf8')).not.toContain(MARK);
  });
});

describe('ctxshed mcp --gateway', () => {
  it("should restore A's text to A's agent, and to B's agent say only that nothing is under that handle", async () => {
    const { proxy, handles } = await setUp();
    const asA = await mcpCall(proxy.url, { ANTHROPIC_API_KEY: KEY_A }, 'restore', { handle: handles[0]! });
    expect(asA.isError).toBeFalsy();
    expect(asA.content[0]!.text).toContain(`sha256 ${handles[0]}; verified`);
    expect(asA.content[0]!.text).toContain(MARK);
    const asB = await mcpCall(proxy.url, { ANTHROPIC_API_KEY: KEY_B }, 'restore', { handle: handles[0]! });
    expect(asB.isError).toBe(true);
    expect(asB.content[0]!.text).toBe(`ctxshed: nothing restorable has a sha256 starting ${handles[0]} (the spans tool lists what there is)`);
    const spansB = await mcpCall(proxy.url, { ANTHROPIC_API_KEY: KEY_B }, 'spans', {});
    expect(spansB.content[0]!.text).not.toContain(handles[0]);
    expect(spansB.content[0]!.text).toContain('0 blocks in 0 conversations');
  });

  it('should send a header from the environment with --gateway-header, for a gateway run with --owner-header', async () => {
    const dir = await tempStateDir();
    const upstream = await startTestApi();
    const proxy = await startTestProxy(dir, testConfig(upstream.url), { ownerRule: { kind: 'header', name: 'x-team-user' } });
    cleanups.push(
      () => upstream.close(),
      () => proxy.close(),
    );
    const a = new ScriptedClient(proxy.url, { headers: { 'x-team-user': 'alice' }, runTool: (_use, turn) => `${MARK} ${turn}\n${toolOutput(turn, 3000)}` });
    for (let i = 0; i < 30; i++) await a.turnOnce();
    const elided = path.join(dir, 'owners', ownerIdOf('alice'), 'elided');
    const handle = fs.readdirSync(elided)[0]!.slice(0, 64);
    const asAlice = await mcpCall(proxy.url, { TEAM_USER: 'alice' }, 'restore', { handle }, ['--gateway-header', 'x-team-user=TEAM_USER']);
    expect(asAlice.content[0]!.text).toContain(MARK);
    const asBob = await mcpCall(proxy.url, { TEAM_USER: 'bob' }, 'restore', { handle }, ['--gateway-header', 'x-team-user=TEAM_USER']);
    expect(asBob.isError).toBe(true);
    expect(asBob.content[0]!.text).not.toContain(MARK);
  });
});
