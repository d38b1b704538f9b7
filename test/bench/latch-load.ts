/**
 * Latching at a team's load (docs/team.md "Latching at load"; issue 30 item 5), on both stores
 * in one run: figures, not a test threshold. Run:
 *
 *   npx tsx test/bench/latch-load.ts [blocks=5000] [perLatch=40] [conversations=50,200] [stores=fs,postgres]
 *
 * For each store (the state directory in the OS temp dir; Postgres on a throwaway cluster with
 * fsync on, as in production, reached through one `PgDb` pool as one replica would):
 * 1. One request latching `blocks` blocks (3 KB each): its latch's wall time.
 * 2. `conversations` conversations latching at once, `perLatch` blocks each: each latch's wait
 *    (from the call to the record stored), median and p99.
 * 3. Requests that did not latch, meanwhile: a read of another conversation's record (what a
 *    request that latches nothing does with the store), median and p99.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { fsStore } from '../../src/store/fs-store.js';
import { openPgStore } from '../../src/store/open-store.js';
import { PgDb } from '../../src/store/pg-db.js';
import type { ConversationStore } from '../../src/store/store-types.js';
import { blockFor, epochOf, keyOf, recordOf } from '../state/fixtures/state-fixtures.js';
import { postgresBin, startPgCluster } from '../support/pg-cluster.js';

const blocks = Number(process.argv[2] ?? 5000);
const perLatch = Number(process.argv[3] ?? 40);
const counts = (process.argv[4] ?? '50,200').split(',').map(Number);
const stores = (process.argv[5] ?? 'fs,postgres').split(',');

/** A fresh, empty store of one kind, and how to remove it. */
interface FreshStore {
  readonly store: ConversationStore;
  remove(): Promise<void>;
}
type MakeStore = (name: string) => Promise<FreshStore>;

function planFor(seed: string, n: number) {
  const made = Array.from({ length: n }, (_, i) => blockFor(`${seed} block ${i}\n${'x'.repeat(3000)}`, i + 1));
  const key = keyOf(seed);
  return {
    key,
    plan: {
      record: recordOf(key, [
        epochOf(
          1,
          made.map((m) => m.block),
        ),
      ]),
      originals: made.map((m) => m.file),
    },
  };
}

function pct(sorted: number[], p: number): number {
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!);
}

async function freshDirectory(): Promise<FreshStore> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'ctxshed-latch-bench-'));
  return { store: fsStore(await openStateDir(root)), remove: () => fs.rm(root, { recursive: true, force: true }) };
}

async function oneBig(label: string, make: MakeStore): Promise<void> {
  const { store, remove } = await make('big');
  const { key, plan } = planFor('big', blocks);
  const t0 = performance.now();
  await store.latch(key, () => plan);
  const ms = performance.now() - t0;
  console.log(`${label}: one latch of ${blocks} blocks: ${(ms / 1000).toFixed(2)} s (${(ms / blocks).toFixed(2)} ms a block)`);
  await store.close();
  await remove();
}

async function concurrent(label: string, make: MakeStore, n: number): Promise<void> {
  const { store, remove } = await make(`load${n}`);
  const bystander = planFor('bystander', 1);
  await store.latch(bystander.key, () => bystander.plan);
  const plans = Array.from({ length: n }, (_, c) => planFor(`conversation ${c}`, perLatch));
  const waits: number[] = [];
  const reads: number[] = [];
  let done = false;
  const reader = (async () => {
    while (!done) {
      const t0 = performance.now();
      await store.readRecord(bystander.key);
      reads.push(performance.now() - t0);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  const t0 = performance.now();
  await Promise.all(
    plans.map(async ({ key, plan }) => {
      const started = performance.now();
      await store.latch(key, () => plan);
      waits.push(performance.now() - started);
    }),
  );
  const wall = performance.now() - t0;
  done = true;
  await reader;
  waits.sort((a, b) => a - b);
  reads.sort((a, b) => a - b);
  console.log(
    `${label}: ${n} conversations latching ${perLatch} blocks each at once: wall ${(wall / 1000).toFixed(2)} s; ` +
      `a latching request waited median ${pct(waits, 50)} ms, p99 ${pct(waits, 99)} ms; ` +
      `a request that latched nothing (record read, n=${reads.length}) median ${pct(reads, 50)} ms, p99 ${pct(reads, 99)} ms`,
  );
  await store.close();
  await remove();
}

async function probe(label: string, make: MakeStore): Promise<void> {
  await oneBig(label, make);
  for (const n of counts) await concurrent(label, make, n);
}

const loadNow = (): string =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
console.log(`load ${loadNow()}, ${os.cpus().length} CPUs, tmpdir ${os.tmpdir()}`);
if (stores.includes('fs')) await probe('state directory', freshDirectory);
if (stores.includes('postgres')) {
  if (postgresBin() === undefined) console.log('postgres: skipped (Postgres is not installed)');
  else {
    const cluster = await startPgCluster({ durable: true });
    try {
      await probe('postgres', async (name) => {
        const url = await cluster.createDatabase(name);
        const db = new PgDb(url);
        await db.migrate();
        await db.close();
        return { store: await openPgStore(url), remove: async () => undefined };
      });
    } finally {
      await cluster.stop();
    }
  }
}
console.log(`load after ${loadNow()}`);
