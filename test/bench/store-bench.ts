/**
 * The store benchmark (issue 30, item 6): requests per second and the latency ctxshed adds, for
 * the state directory and for 1, 2 and 3 `serve --store postgres://…` replicas (real processes,
 * the built CLI) on one throwaway Postgres, in one run. Each configuration runs the same scripted
 * conversations (CONVERSATIONS at once, TURNS turns each, a 20,000-token window so epochs latch)
 * against one scripted upstream, requests spread round-robin over the replicas; a direct run
 * (client -> upstream) gives the floor the added latency is measured from. Postgres runs with
 * fsync on, as in production. Two balancers: round-robin (each request of a conversation on the
 * next replica: the case the replicas must agree on) and sticky (a conversation stays on one
 * replica while it lives, as a balancer with session affinity keeps it). Only meaningful on a quiet
 * machine: every process shares its cores. Without Postgres it says so and stops.
 */
import { performance } from 'node:perf_hooks';
import { startMessagesApi } from '../../src/scripted/messages-api.js';
import { ScriptedClient } from '../../src/scripted/client.js';
import { postgresBin, startPgCluster } from '../support/pg-cluster.js';
import { startRoundRobin } from '../support/round-robin.js';
import { tempStateDir } from '../support/test-proxy.js';
import { spawn } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { PgDb } from '../../src/store/index.js';
import { formatTable, ms, quantile } from './measure.js';

const CONVERSATIONS = Number(process.env['STORE_BENCH_CONVERSATIONS'] ?? 8);
const TURNS = Number(process.env['STORE_BENCH_TURNS'] ?? 30);

interface RunStats {
  readonly name: string;
  readonly requests: number;
  readonly seconds: number;
  readonly latencies: number[];
}

/** Runs every configuration and prints one table. */
export async function runStoreBench(): Promise<void> {
  if (postgresBin() === undefined) {
    console.log('store bench: skipped (Postgres is not installed: /usr/lib/postgresql/*/bin/initdb)');
    return;
  }
  const cluster = await startPgCluster({ durable: true });
  const runs: RunStats[] = [];
  try {
    runs.push(await runThrough('direct', async (upstreamUrl) => ({ url: upstreamUrl, stop: async () => undefined })));
    runs.push(await runThrough('state directory', (upstreamUrl) => replicasOn(upstreamUrl, undefined, 1)));
    for (const count of [1, 2, 3]) {
      for (const balance of count === 1 ? (['round-robin'] as const) : BALANCERS) {
        const url = await cluster.createDatabase(`bench${count}${balance === 'sticky' ? 's' : ''}`);
        const db = new PgDb(url);
        await db.migrate();
        await db.close();
        const name = `postgres, ${count} replica${count === 1 ? '' : `s, ${balance}`}`;
        runs.push(await runThrough(name, (upstreamUrl) => replicasOn(upstreamUrl, url, count, balance)));
      }
    }
  } finally {
    await cluster.stop();
  }
  printTable(runs);
}

const BALANCERS = ['round-robin', 'sticky'] as const;
type Balance = (typeof BALANCERS)[number];
/** The header each bench conversation sends, that the sticky balancer picks a replica by. */
const CONVERSATION_HEADER = 'x-bench-conversation';

/** `count` serve processes (on `store`, or each on its own state directory) behind a balancer. */
async function replicasOn(
  upstreamUrl: string,
  store: string | undefined,
  count: number,
  balance: Balance = 'round-robin',
): Promise<{ url: string; stop: () => Promise<void> }> {
  const served: Array<{ url: string; stop: () => Promise<void> }> = [];
  for (let i = 0; i < count; i++) {
    const state = await tempStateDir('ctxshed-store-bench-');
    const args = ['--state', state, '--upstream', upstreamUrl, '--window', '20000', ...(store === undefined ? [] : ['--store', store])];
    served.push(await serve(args));
  }
  const sticky = (_n: number, headers: Record<string, unknown>): number => Number(headers[CONVERSATION_HEADER] ?? 0) % count;
  const balancer = await startRoundRobin(
    served.map((s) => s.url),
    balance === 'sticky' ? sticky : undefined,
  );
  return {
    url: balancer.url,
    stop: async () => {
      await balancer.close();
      for (const s of served) await s.stop();
    },
  };
}

/** The same conversations through the address `start` gives, timed per request. */
async function runThrough(name: string, start: (upstreamUrl: string) => Promise<{ url: string; stop: () => Promise<void> }>): Promise<RunStats> {
  const upstream = await startMessagesApi();
  const front = await start(upstream.url);
  const latencies: number[] = [];
  const began = performance.now();
  await Promise.all(
    Array.from({ length: CONVERSATIONS }, async (_, c) => {
      const client = new ScriptedClient(front.url, {
        prompt: `conversation ${c}: please read the project files.`,
        headers: { [CONVERSATION_HEADER]: String(c) },
      });
      for (let t = 0; t < TURNS; t++) {
        const sent = performance.now();
        const turn = await client.turnOnce();
        latencies.push(performance.now() - sent);
        if (turn.status !== 200) throw new Error(`${name}: conversation ${c} turn ${t} answered ${turn.status}`);
      }
      client.close();
    }),
  );
  const seconds = (performance.now() - began) / 1000;
  await front.stop();
  await upstream.close();
  return { name, requests: CONVERSATIONS * TURNS, seconds, latencies: latencies.sort((a, b) => a - b) };
}

// Run from dist/test/bench/ (npm run bench): the CLI is dist/src/cli/main.js.
const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

/** A `ctxshed serve` process, once it prints its URL. */
function serve(args: readonly string[]): Promise<{ url: string; stop: () => Promise<void> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<void>((done) => child.on('close', () => done()));
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      const m = /ANTHROPIC_BASE_URL=(\S+)/.exec(stdout);
      if (m?.[1] !== undefined) resolve({ url: m[1], stop: () => (child.kill('SIGTERM'), exited) });
    });
    void exited.then(() => reject(new Error(`serve exited before it was ready: ${stderr}`)));
  });
}

function printTable(runs: readonly RunStats[]): void {
  const direct = runs[0];
  const floor = direct === undefined ? 0 : quantile(direct.latencies, 0.5);
  console.log(`store: ${CONVERSATIONS} conversations at once, ${TURNS} turns each; Postgres with fsync on; load ${os.loadavg()[0]?.toFixed(1)}`);
  const rows = runs.map((r) => [
    r.name,
    (r.requests / r.seconds).toFixed(1),
    ms(quantile(r.latencies, 0.5)),
    ms(quantile(r.latencies, 0.99)),
    r === direct ? '-' : ms(quantile(r.latencies, 0.5) - floor),
  ]);
  console.log(formatTable(['path', 'req/s', 'p50', 'p99', 'added p50'], rows));
}
