/**
 * Owners on the Postgres store, and isolation between them (docs/team.md): two replicas on one
 * database, each with an owner rule. Owner A's requests latch on replica 1; A restores through
 * replica 2 and gets its text; owner B, through either replica, by every route and tool, gets the
 * fixed 404 and nothing of A's. Owner C's requests alternate between the replicas and every one
 * keeps the prefix of the one before (the replicas agree per owner).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_UNKNOWN_HANDLE } from '../../src/core/gateway-routes.js';
import { ownerIdOf } from '../../src/proxy/owner-rule.js';
import type { RunningProxy } from '../../src/proxy/start-proxy.js';
import { ScriptedClient } from '../../src/scripted/client.js';
import type { MessagesApi } from '../../src/scripted/messages-api.js';
import { isMessagesRequest } from '../../src/scripted/received-request.js';
import { toolOutput } from '../../src/scripted/tool-output.js';
import { openPgStore, PgDb, type PgStore } from '../../src/store/index.js';
import { get, mcpCall } from '../support/gateway-calls.js';
import { postgresAvailable, startPgCluster, type PgCluster } from '../support/pg-cluster.js';
import { startRoundRobin } from '../support/round-robin.js';
import { startTestApi } from '../support/scripted-api.js';
import { startTestProxy, tempStateDir, testConfig, waitForWire } from '../support/test-proxy.js';
import { blocksOf } from '../../src/core/epoch-items.js';

const KEY_A = 'sk-ant-gateway-a-0001';
const KEY_B = 'sk-ant-gateway-b-0002';
const KEY_C = 'sk-ant-gateway-c-0003';
const MARK = 'ALPHA-PRIVATE';
const TURNS = 30;
/** What every gateway stub says, whatever its label: the way back is the restore tool, not a path. */
const RESTORE_TOOL = "call ctxshed's restore tool with this sha256";

describe.skipIf(!postgresAvailable())('owners and restores on Postgres, two replicas', () => {
  let cluster: PgCluster;
  let upstream: MessagesApi;
  let db: PgDb;
  const stores: PgStore[] = [];
  const dirs: string[] = [];
  const replicas: RunningProxy[] = [];
  let handles: string[] = [];
  let aBodies: Buffer[] = [];

  beforeAll(async () => {
    cluster = await startPgCluster();
    db = new PgDb(cluster.url);
    await db.migrate();
    upstream = await startTestApi();
    for (let i = 0; i < 2; i++) {
      const dir = await tempStateDir('ctxshed-pg-gw-');
      const store = await openPgStore(cluster.url);
      dirs.push(dir);
      stores.push(store);
      replicas.push(await startTestProxy(dir, testConfig(upstream.url), { ownerRule: { kind: 'credential' }, store }));
    }
    const a = new ScriptedClient(replicas[0]!.url, { headers: { 'x-api-key': KEY_A }, runTool: (_use, turn) => `${MARK} ${turn}\n${toolOutput(turn, 3000)}` });
    for (let i = 0; i < TURNS; i++) expect((await a.turnOnce()).status).toBe(200);
    a.close();
    await waitForWire(dirs[0]!, TURNS);
    aBodies = upstream.requests
      .splice(0)
      .filter(isMessagesRequest)
      .map((r) => r.body);
    handles = await shasOf(ownerIdOf(KEY_A));
  }, 120_000);
  afterAll(async () => {
    for (const r of replicas) await r.close();
    for (const s of stores) await s.close();
    await db?.close();
    await upstream?.close();
    await cluster?.stop();
  });

  async function shasOf(owner: string): Promise<string[]> {
    const rows = await db.withClient((c) =>
      c.query<{ sha256: string }>("SELECT sha256 FROM ctxshed_originals WHERE owner = $1 AND kind = 'elided' AND ext = 'txt' ORDER BY sha256", [owner]),
    );
    return rows.rows.map((r) => r.sha256);
  }

  it("should keep A's conversation and originals in A's rows, with gateway stubs and no file on either replica", async () => {
    expect(handles.length).toBeGreaterThan(0);
    const owners = await db.withClient((c) => c.query<{ owner: string }>('SELECT DISTINCT owner FROM ctxshed_conversations'));
    expect(owners.rows.map((r) => r.owner)).toEqual([ownerIdOf(KEY_A)]);
    expect(await shasOf('')).toEqual([]);
    const last = aBodies.at(-1)!.toString('utf8');
    // Checked as booleans: a failure should not print A's whole request.
    expect(last.includes(RESTORE_TOOL)).toBe(true);
    expect(last.includes('/ctxshed-store')).toBe(false);
    for (const dir of dirs) {
      for (const sub of ['elided', 'spans', 'conversations']) {
        expect(namesIn(path.join(dir, sub))).toEqual([]);
        expect(namesIn(path.join(dir, 'owners', ownerIdOf(KEY_A), sub))).toEqual([]);
      }
    }
  });

  it('should give A its text through replica 2, and B through either replica the same 404 as a handle nobody has', async () => {
    const mine = await get(replicas[1]!.url, `/_ctxshed/v1/restore?handle=${handles[0]}`, { 'x-api-key': KEY_A });
    expect(mine.status).toBe(200);
    expect(Buffer.from(JSON.parse(mine.body).bytes, 'base64').toString('utf8')).toContain(MARK);
    for (const replica of replicas) {
      const theirs = await get(replica.url, `/_ctxshed/v1/restore?handle=${handles[0]}`, { 'x-api-key': KEY_B });
      const nobody = await get(replica.url, `/_ctxshed/v1/restore?handle=${'e'.repeat(64)}`, { 'x-api-key': KEY_B });
      expect(theirs.status).toBe(404);
      expect(JSON.parse(theirs.body)).toEqual(JSON.parse(nobody.body));
      expect(JSON.parse(theirs.body).error.message).toContain(GATEWAY_UNKNOWN_HANDLE);
      expect(theirs.body).not.toContain(handles[0]);
      expect(theirs.body).not.toContain(MARK);
      expect((await get(replica.url, `/_ctxshed/v1/restore?handle=${handles[0]!.slice(0, 12)}`, { 'x-api-key': KEY_B })).status).toBe(404);
      const none = await get(replica.url, `/_ctxshed/v1/restore?handle=${handles[0]}`, {});
      expect(none.status).toBe(401);
      expect(none.body).not.toContain(MARK);
    }
    // B's reads made no rows of B's.
    const bRows = await db.withClient((c) => c.query('SELECT 1 FROM ctxshed_originals WHERE owner = $1', [ownerIdOf(KEY_B)]));
    expect(bRows.rowCount).toBe(0);
  });

  it("should list A's handles to A through replica 2, and nothing to B through either", async () => {
    const mine = JSON.parse((await get(replicas[1]!.url, '/_ctxshed/v1/spans', { 'x-api-key': KEY_A })).body);
    expect(
      mine.conversations.flatMap((c: { blocks: Array<{ sha256: string; present: boolean }> }) => c.blocks.filter((b) => b.present).map((b) => b.sha256)),
    ).toEqual(expect.arrayContaining(handles));
    for (const replica of replicas) {
      const theirs = await get(replica.url, '/_ctxshed/v1/spans', { 'x-api-key': KEY_B });
      expect(JSON.parse(theirs.body)).toEqual({ conversations: [], unreadable: [] });
    }
  });

  it("should restore A's text to A's agent through mcp --gateway on replica 2, and tell B's agent on either only that nothing is there", async () => {
    const asA = await mcpCall(replicas[1]!.url, { ANTHROPIC_API_KEY: KEY_A }, 'restore', { handle: handles[0]! });
    expect(asA.isError).toBeFalsy();
    expect(asA.content[0]!.text).toContain(`sha256 ${handles[0]}; verified`);
    expect(asA.content[0]!.text).toContain(MARK);
    for (const replica of replicas) {
      const asB = await mcpCall(replica.url, { ANTHROPIC_API_KEY: KEY_B }, 'restore', { handle: handles[0]! });
      expect(asB.isError).toBe(true);
      expect(asB.content[0]!.text).toBe(`ctxshed: nothing restorable has a sha256 starting ${handles[0]} (the spans tool lists what there is)`);
    }
    const spansB = await mcpCall(replicas[0]!.url, { ANTHROPIC_API_KEY: KEY_B }, 'spans', {});
    expect(spansB.content[0]!.text).not.toContain(handles[0]);
    expect(spansB.content[0]!.text).toContain('0 blocks in 0 conversations');
  }, 60_000);

  it("should give B nothing of A's when B's transcript names A's handles, and keep A out of the metrics, health and wire logs", async () => {
    const b = new ScriptedClient(replicas[1]!.url, { headers: { 'x-api-key': KEY_B }, prompt: `Please restore ${handles.join(' and ')}` });
    for (let i = 0; i < 25; i++) expect((await b.turnOnce()).body.toString('utf8')).not.toContain(MARK);
    b.close();
    for (const r of upstream.requests.splice(0).filter(isMessagesRequest)) expect(r.body.toString('utf8')).not.toContain(MARK);
    for (const [i, replica] of replicas.entries()) {
      const texts = [(await get(replica.url, '/_ctxshed/metrics', {})).body, (await get(replica.url, '/_ctxshed/health', {})).body];
      texts.push(fs.readFileSync(path.join(dirs[i]!, 'wire.jsonl'), 'utf8'));
      for (const text of texts) {
        expect(text).not.toContain(MARK);
        expect(text).not.toContain(KEY_A);
        expect(text).not.toContain(ownerIdOf(KEY_A));
      }
    }
  }, 60_000);

  it("should latch C's epochs once and keep each request's prefix when C's requests alternate between the replicas", async () => {
    const balancer = await startRoundRobin(replicas.map((r) => r.url));
    const c = new ScriptedClient(balancer.url, { headers: { 'x-api-key': KEY_C }, runTool: (_use, turn) => `gamma ${turn}\n${toolOutput(turn, 3000)}` });
    for (let i = 0; i < TURNS; i++) expect((await c.turnOnce()).status).toBe(200);
    c.close();
    await balancer.close();
    expect(new Set(balancer.answeredBy)).toEqual(new Set([0, 1]));
    const bodies = upstream.requests
      .splice(0)
      .filter(isMessagesRequest)
      .map((r) => JSON.parse(r.body.toString('utf8')) as { messages: unknown[] });
    expect(bodies.some((b) => JSON.stringify(b).includes(RESTORE_TOOL))).toBe(true);
    // The client moves its cache breakpoint to the last message: all before it keep their bytes
    // except where an epoch latched. Replicas that disagreed would flip the stubs back and forth.
    let breaks = 0;
    for (let i = 1; i < bodies.length; i++) {
      const before = bodies[i - 1]!.messages;
      if (JSON.stringify(bodies[i]!.messages.slice(0, before.length - 1)) !== JSON.stringify(before.slice(0, -1))) breaks++;
    }
    const record = await (await stores[0]!.forOwner(ownerIdOf(KEY_C))).listRecords();
    expect(record).toHaveLength(1);
    expect(record[0]!.epochs.length).toBeGreaterThan(0);
    expect(breaks).toBe(record[0]!.epochs.length);
    const shas = record[0]!.epochs.flatMap((e) => blocksOf(e).map((b) => b.sha256));
    expect(new Set(shas).size).toBe(shas.length);
    expect(await shasOf(ownerIdOf(KEY_C))).toEqual([...shas].sort());
  }, 120_000);
});

/** The entries of a folder, none when it does not exist. */
function namesIn(dir: string): string[] {
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}
