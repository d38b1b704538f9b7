/**
 * On Postgres with no owner rule, a stub names a way back that exists on the agent's machine
 * (issue 41 item 7): the originals are in the database, on no disk the agent reads, and the stubs
 * said `read /ctxshed-store/elided/<sha>.txt`, a path on no machine. Now they name the restore
 * tool, the tool `serve` registers reads through the proxy with the state directory's owner key,
 * and it gives the text back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningProxy } from '../../src/proxy/start-proxy.js';
import { serveHint } from '../../src/cli/serve-hint.js';
import { ScriptedClient } from '../../src/scripted/client.js';
import type { MessagesApi } from '../../src/scripted/messages-api.js';
import { isMessagesRequest } from '../../src/scripted/received-request.js';
import { toolOutput } from '../../src/scripted/tool-output.js';
import { layoutPaths } from '../../src/state/layout.js';
import { openPgStore, PgDb, type PgStore } from '../../src/store/index.js';
import { mcpCall } from '../support/gateway-calls.js';
import { postgresAvailable, startPgCluster, type PgCluster } from '../support/pg-cluster.js';
import { startTestApi } from '../support/scripted-api.js';
import { startTestProxy, tempStateDir, testConfig, waitForWire } from '../support/test-proxy.js';

const MARK = 'PG-SINGLE-USER';
const TURNS = 25;
/** What every such stub says, whatever its label: the way back is the restore tool, not a path. */
const RESTORE_TOOL = "call ctxshed's restore tool with this sha256";

describe.skipIf(!postgresAvailable())('stubs on Postgres with no owner rule', () => {
  let cluster: PgCluster;
  let db: PgDb;
  let store: PgStore;
  let upstream: MessagesApi;
  let proxy: RunningProxy;
  let dir = '';
  let stubbed: string[] = [];

  beforeAll(async () => {
    cluster = await startPgCluster();
    db = new PgDb(cluster.url);
    await db.migrate();
    upstream = await startTestApi();
    dir = await tempStateDir('ctxshed-pg-single-');
    store = await openPgStore(cluster.url);
    proxy = await startTestProxy(dir, testConfig(upstream.url), { store });
    const client = new ScriptedClient(proxy.url, { runTool: (_use, turn) => `${MARK} ${turn}\n${toolOutput(turn, 3000)}` });
    for (let i = 0; i < TURNS; i++) expect((await client.turnOnce()).status).toBe(200);
    client.close();
    await waitForWire(dir, TURNS);
    stubbed = upstream.requests
      .filter(isMessagesRequest)
      .map((r) => r.body.toString('utf8'))
      .filter((b) => b.includes('[ctxshed: '));
  }, 120_000);

  afterAll(async () => {
    await proxy?.close();
    await store?.close();
    await db?.close();
    await upstream?.close();
    await cluster?.stop();
  });

  it('should name the restore tool and the sha256 in every stub, and no path', () => {
    expect(stubbed.length).toBeGreaterThan(0);
    const last = stubbed.at(-1)!;
    const stubs = [...last.matchAll(/\[ctxshed: [^\]]*\]/g)].map((m) => m[0]);
    expect(stubs.length).toBeGreaterThan(0);
    // Each stub says the way back is the restore tool, however its label words the rest.
    for (const stub of stubs) expect(stub.includes(RESTORE_TOOL), stub).toBe(true);
    expect(last.includes('/ctxshed-store')).toBe(false);
    expect(/\/elided\/[0-9a-f]{64}\.txt/.test(last)).toBe(false);
  });

  it("should give the text back through the restore tool serve registers: the proxy's routes, with the owner key", async () => {
    const sha = /sha256 ([0-9a-f]{64})/.exec(stubbed.at(-1)!)?.[1];
    expect(sha).toBeDefined();
    const hint = serveHint(proxy.url, layoutPaths(dir), { node: process.execPath, entry: 'main.js' }, 'owner-key').join('\n');
    expect(hint).toContain(`"mcp","--gateway","${proxy.url}","--state","${dir}"`);

    const restored = await mcpCall(proxy.url, {}, 'restore', { handle: sha }, ['--state', dir]);

    expect(restored.isError).not.toBe(true);
    expect(restored.content[0]?.text).toContain(MARK);
  });
});
