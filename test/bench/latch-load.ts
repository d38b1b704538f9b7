/**
 * Latching at a team's load (docs/team.md "Latching at load"; issue 30 item 5), on the
 * filesystem store: figures, not a test threshold. Run:
 *
 *   npx tsx test/bench/latch-load.ts [blocks=5000] [perLatch=40] [conversations=50,200]
 *
 * 1. One request latching `blocks` blocks (3 KB each): its latch's wall time.
 * 2. `conversations` conversations latching at once, `perLatch` blocks each: each latch's wait
 *    (from the call to the record on disk), median and p99.
 * 3. Requests that did not latch, meanwhile: a read of another conversation's record (what a
 *    request that latches nothing does with the state), median and p99.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { latchEpoch } from '../../src/state/latch-epoch.js';
import { openStateDir, type StateDir } from '../../src/state/open-state-dir.js';
import { readConversation } from '../../src/state/read-conversation.js';
import { blockFor, epochOf, keyOf, recordOf } from '../state/fixtures/state-fixtures.js';

const blocks = Number(process.argv[2] ?? 5000);
const perLatch = Number(process.argv[3] ?? 40);
const counts = (process.argv[4] ?? '50,200').split(',').map(Number);

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
      files: made.map((m) => m.file),
    },
  };
}

function pct(sorted: number[], p: number): number {
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!);
}

async function fresh(): Promise<StateDir> {
  return openStateDir(await fs.mkdtemp(path.join(os.tmpdir(), 'ctxshed-latch-bench-')));
}

async function oneBig(): Promise<void> {
  const state = await fresh();
  const { key, plan } = planFor('big', blocks);
  const t0 = performance.now();
  await latchEpoch(state, key, () => plan);
  const ms = performance.now() - t0;
  console.log(`one latch of ${blocks} blocks: ${(ms / 1000).toFixed(2)} s (${(ms / blocks).toFixed(2)} ms a block)`);
  await fs.rm(state.root, { recursive: true, force: true });
}

async function concurrent(n: number): Promise<void> {
  const state = await fresh();
  const bystander = planFor('bystander', 1);
  await latchEpoch(state, bystander.key, () => bystander.plan);
  const plans = Array.from({ length: n }, (_, c) => planFor(`conversation ${c}`, perLatch));
  const waits: number[] = [];
  const reads: number[] = [];
  let done = false;
  const reader = (async () => {
    while (!done) {
      const t0 = performance.now();
      await readConversation(state, bystander.key);
      reads.push(performance.now() - t0);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  const t0 = performance.now();
  await Promise.all(
    plans.map(async ({ key, plan }) => {
      const started = performance.now();
      await latchEpoch(state, key, () => plan);
      waits.push(performance.now() - started);
    }),
  );
  const wall = performance.now() - t0;
  done = true;
  await reader;
  waits.sort((a, b) => a - b);
  reads.sort((a, b) => a - b);
  console.log(
    `${n} conversations latching ${perLatch} blocks each at once: wall ${(wall / 1000).toFixed(2)} s; ` +
      `a latching request waited median ${pct(waits, 50)} ms, p99 ${pct(waits, 99)} ms; ` +
      `a request that latched nothing (record read, n=${reads.length}) median ${pct(reads, 50)} ms, p99 ${pct(reads, 99)} ms`,
  );
  await fs.rm(state.root, { recursive: true, force: true });
}

console.log(
  `load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}, ${os.cpus().length} CPUs, tmpdir ${os.tmpdir()}`,
);
await oneBig();
for (const n of counts) await concurrent(n);
console.log(
  `load after ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
