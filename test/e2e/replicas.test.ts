/**
 * Three `ctxshed serve --store postgres://…` replicas (the built CLI) behind one round-robin
 * address, against one scripted upstream: every body the upstream receives is the one a single
 * replica sends for the same script; a replica killed mid-latch loses nothing; a replica that
 * loses the database forwards untouched (store_unavailable) and recovers when it returns.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMessagesApi, type MessagesApi } from '../../src/scripted/messages-api.js';
import { isMessagesRequest } from '../../src/scripted/received-request.js';
import { ScriptedClient } from '../../src/scripted/client.js';
import { runCtxshed } from '../support/cli-process.js';
import { postgresAvailable, startPgCluster, type PgCluster } from '../support/pg-cluster.js';
import { startRoundRobin } from '../support/round-robin.js';
import { tempStateDir } from '../support/test-proxy.js';
import { serve, type Served } from '../reliability/serve-session.js';

const TURNS = 26;

describe.skipIf(!postgresAvailable())('replicas on one Postgres', () => {
  let cluster: PgCluster;
  let upstream: MessagesApi;
  let single: Buffer[];
  const running: Served[] = [];

  beforeAll(async () => {
    cluster = await startPgCluster();
    upstream = await startMessagesApi();
    single = await runScript(await migrated('single'), 1);
    await freshUpstream();
  }, 120_000);
  afterAll(async () => {
    for (const s of running) await s.stop();
    await upstream?.close();
    await cluster?.stop();
  });

  // The scripted API numbers its replies: each run gets a fresh one, so the same script gets the same replies.
  async function freshUpstream(): Promise<void> {
    await upstream.close();
    upstream = await startMessagesApi();
  }

  async function migrated(name: string): Promise<string> {
    const url = await cluster.createDatabase(name);
    const out = await runCtxshed(['migrate', '--store', url]);
    expect(out.stdout).toMatch(/migrated from 0 to schema version 2/);
    return url;
  }

  async function replicas(url: string, count: number, env: Array<Record<string, string>> = []): Promise<Array<Served & { state: string }>> {
    const started: Array<Served & { state: string }> = [];
    for (let i = 0; i < count; i++) {
      const state = await tempStateDir('ctxshed-replica-');
      const args = ['--store', url, '--state', state, '--upstream', upstream.url, '--window', '20000', '--replica-name', `r${i}`];
      started.push({ ...(await serve(args, env[i] ?? {})), state });
    }
    running.push(...started);
    return started;
  }

  function modelBodies(): Buffer[] {
    return upstream.requests
      .splice(0)
      .filter(isMessagesRequest)
      .map((r) => r.body);
  }

  /** The script through `count` replicas round-robin; the model bodies the upstream received. */
  async function runScript(url: string, count: number, sent: Buffer[] = []): Promise<Buffer[]> {
    const served = await replicas(url, count);
    const balancer = await startRoundRobin(served.map((s) => s.url));
    modelBodies();
    const client = new ScriptedClient(balancer.url);
    for (let i = 0; i < TURNS; i++) expect((await client.turnOnce()).status).toBe(200);
    client.close();
    sent.push(...client.sent);
    await balancer.close();
    for (const s of served) await s.stop();
    return modelBodies();
  }

  it('should refuse to serve on a database that was never migrated, without showing its password', async () => {
    const url = (await cluster.createDatabase('bare')).replace('postgres@', 'postgres:hunter2pw@');
    const out = await runCtxshed(['serve', '--store', url, '--state', await tempStateDir('ctxshed-bare-')]);
    expect(out.code).not.toBe(0);
    expect(out.stderr).toMatch(/has no ctxshed schema.*ctxshed migrate/);
    expect(out.stderr + out.stdout).not.toContain('hunter2pw');
  });

  it('should send the same bytes from three replicas as from one, with epochs latched', async () => {
    expect(single.length).toBe(TURNS);
    // An epoch latched: a later body is shorter than the transcript the client sent.
    expect(single.some((b) => b.includes('[ctxshed'))).toBe(true);
    const url = await migrated('three');
    await freshUpstream();
    const sent: Buffer[] = [];
    const three = await runScript(url, 3, sent);
    expect(three.length).toBe(TURNS);
    expectSameBodies(three, single);
    const verify = await runCtxshed(['verify', '--store', url]);
    expect(verify.stdout).toMatch(/^ok: postgres:\/\/postgres@127\.0\.0\.1:\d+\/three: 1 conversation, [1-9]\d* epochs?/m);
    expect(verify.code).toBe(0);
    // The read-only commands read the database as they read a directory.
    const ls = await runCtxshed(['ls', '--store', url, '--json']);
    const listed = JSON.parse(ls.stdout) as { conversations: Array<{ key: string }> };
    expect(listed.conversations).toHaveLength(1);
    const key = listed.conversations[0]?.key ?? '';
    expect((await runCtxshed(['show', key.slice(0, 12), '--store', url])).stdout).toContain(key);
    const dir = await tempStateDir('ctxshed-inflate-');
    await fs.writeFile(path.join(dir, 'body.json'), three.at(-1) as Buffer);
    const inflated = await runCtxshed(['inflate', path.join(dir, 'body.json'), '--store', url]);
    expect(Buffer.from(inflated.stdout, 'utf8').equals(sent.at(-1) as Buffer)).toBe(true);
  }, 120_000);

  it('should lose nothing when a replica is killed -9 in the middle of a latch', async () => {
    const url = await migrated('killed');
    await freshUpstream();
    const served = await replicas(url, 3, [{ CTXSHED_TEST_CRASH_AT: 'latch-after-all-files' }]);
    // Replica 0 takes every request until it dies mid-latch; then the other two in turn.
    const balancer = await startRoundRobin(
      served.map((s) => s.url),
      (n) => (served[0]?.child.exitCode === null && served[0]?.child.signalCode === null ? 0 : 1 + (n % 2)),
    );
    modelBodies();
    const client = new ScriptedClient(balancer.url);
    for (let i = 0; i < TURNS; i++) expect((await client.turnOnce()).status).toBe(200);
    client.close();
    await balancer.close();
    expect((await served[0]?.exited)?.signal).toBe('SIGKILL');
    const bodies = modelBodies();
    expectSameBodies(bodies, single);
    expect(new Set(balancer.answeredBy.slice(-4))).toEqual(new Set([1, 2]));
    expect((await runCtxshed(['verify', '--store', url])).code).toBe(0);
  }, 120_000);

  it('should forward untouched while the database is away, and carry on when it returns', async () => {
    const url = await migrated('outage');
    const [replica] = await replicas(url, 1);
    if (replica === undefined) throw new Error('no replica');
    modelBodies();
    const client = new ScriptedClient(replica.url);
    for (let i = 0; i < TURNS; i++) await client.turnOnce();
    const rewritten = modelBodies().at(-1) as Buffer;
    // Its metrics carry its name, and nothing of the store's URL.
    const metrics = await (await fetch(`${replica.url}/_ctxshed/metrics`)).text();
    expect(metrics).toMatch(/^ctxshed_requests_total\{[^}]*replica="r0"/m);
    expect(metrics).not.toContain('postgres://');
    expect(rewritten.length).toBeLessThan((client.sent.at(-1) as Buffer).length);
    await cluster.stopServer();
    try {
      expect((await client.turnOnce()).status).toBe(200);
      expect(
        modelBodies()
          .at(-1)
          ?.equals(client.sent.at(-1) as Buffer),
      ).toBe(true);
    } finally {
      await cluster.startServer();
    }
    expect((await client.turnOnce()).status).toBe(200);
    expect((modelBodies().at(-1) as Buffer).length).toBeLessThan((client.sent.at(-1) as Buffer).length);
    client.close();
    await replica.stop();
    const wire = await fs.readFile(path.join(replica.state, 'wire.jsonl'), 'utf8').catch(() => '');
    expect(wire).toContain('store_unavailable');
  }, 120_000);
});

function expectSameBodies(bodies: readonly Buffer[], expected: readonly Buffer[]): void {
  expect(bodies.length).toBe(expected.length);
  for (const [i, body] of bodies.entries()) expect(body.equals(expected[i] as Buffer), `request ${i + 1}`).toBe(true);
}
