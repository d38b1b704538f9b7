/**
 * A conversation over the threshold whose latch is refused, request after request: a Claude
 * Code-shaped conversation of about 4 MB with one epoch latched, growing by one turn per request,
 * every reading at 90% of the window, and a minimum gain no epoch can reach (so the decision is
 * "gain too small" every time, as it is for most requests after an epoch until enough new blocks
 * have piled up). Measured interleaved in one run, each round on the conversation's next request:
 *   - the engine's whole `prepare`, with the eligibility memo (core/eligible-blocks.ts) and with
 *     memos off (every old block judged again, still without hashing);
 *   - the latch step alone: `planElision` + the decision on its plan, what every such request ran before
 *     (every eligible block decoded and hashed twice), against `findEligible` from scratch and
 *     from the previous request's memo.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { decideEpoch } from '../../src/core/decide/decide-epoch.js';
import { DEFAULT_POLICY, planElision, type PlannedBlock } from '../../src/core/plan-elision.js';
import { findEligible, type EligibilityMemo } from '../../src/core/eligible-blocks.js';
import { indexTranscript } from '../../src/core/messages/transcript-index.js';
import type { TranscriptIndex } from '../../src/core/transcript-index-types.js';
import type { Usage } from '../../src/core/usage.js';
import { commonPrefixLength } from '../../src/rescue/common-prefix-length.js';
import { engineSettingsOf, EpochEngine, latchedOf, passthroughReasonOf, type EngineRequest, type Prepared } from '../../src/rescue/index.js';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { ClaudeCodeConversation } from './claude-code-body.js';
import { formatTable, ms, quantile } from './measure.js';

const BODY_BYTES = 4_000_000;
const WINDOW = 1_000_000;
const WARMUP_ROUNDS = 3;
const ROUNDS = 30;

type TaskName = 'engine' | 'engine, memos off' | 'plan as before' | 'judge all' | 'judge from memo';

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function usageAt(fullness: number): Usage {
  return { inputTokens: 10, cacheCreationInputTokens: 0, cacheReadInputTokens: Math.round(fullness * WINDOW) - 10, outputTokens: 5 };
}

function messages(body: Uint8Array): EngineRequest {
  return { method: 'POST', target: '/v1/messages?beta=true', headers: {}, body };
}

/** Runs the section and prints its table. */
export async function runRefusedBench(): Promise<void> {
  console.log('## refused: a 4 MB conversation over the threshold, its latch refused on every request (ms), interleaved');
  console.log(
    `(${os.availableParallelism()} CPUs, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} at start; ${WARMUP_ROUNDS} warm-up rounds, ${ROUNDS} measured)\n`,
  );
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'ctxshed-refused-'));
  try {
    const state = await openStateDir(root);
    const settings = engineSettingsOf({ window: WINDOW });
    const conversation = new ClaudeCodeConversation({ targetBytes: BODY_BYTES, seed: 20_261_130 });
    // One epoch, latched the usual way: a reading at 90%, then the next request.
    const setup = new EpochEngine(state, settings);
    const first = await setup.prepare(messages(conversation.next()));
    setup.observe(first, { status: 200, usage: usageAt(0.9) });
    const latched = await setup.prepare(messages(conversation.next()));
    if (latchedOf(latched) !== 1) throw new Error(`the bench conversation did not latch (${passthroughReasonOf(latched) ?? 'no reason'})`);
    // No epoch can free the whole window: every later decision is "gain too small".
    const refusing = { ...settings, minGainFraction: 1 };
    const engines: Record<'engine' | 'engine, memos off', EpochEngine> = {
      engine: new EpochEngine(state, refusing),
      'engine, memos off': new EpochEngine(state, refusing, { eligibilityLimits: { capBytes: 0, idleMs: 60_000 } }),
    };
    let memo: EligibilityMemo | undefined;
    const samples = new Map<TaskName, { wall: number[]; cpu: number[] }>();
    const elidedDir = state.elidedDir;
    let lastBytes = 0;
    for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
      const body = conversation.next();
      lastBytes = body.length;
      const index = mustIndex(body);
      const previous = memo;
      const tasks: { name: TaskName; run: () => unknown }[] = [
        { name: 'engine', run: () => prepareAndObserve(engines.engine, body) },
        { name: 'engine, memos off', run: () => prepareAndObserve(engines['engine, memos off'], body) },
        { name: 'plan as before', run: () => decideOn(planElision(body, index, DEFAULT_POLICY, sha256, { elidedDir }), index) },
        { name: 'judge all', run: () => findEligible(body, index, DEFAULT_POLICY, { elidedDir }, undefined, commonPrefixLength) },
        {
          name: 'judge from memo',
          run: () => {
            memo = findEligible(body, index, DEFAULT_POLICY, { elidedDir }, previous, commonPrefixLength).memo;
          },
        },
      ];
      for (let k = 0; k < tasks.length; k++) {
        const task = tasks[(k + round) % tasks.length]!;
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        const result = task.run();
        if (result instanceof Promise) {
          const prepared = (await result) as Prepared;
          if (prepared.outcome !== 'rewritten') throw new Error(`${task.name}: expected a rewrite without a latch, got ${prepared.reason}`);
          if (prepared.latched !== undefined) throw new Error(`${task.name}: expected a rewrite without a latch, got epoch ${prepared.latched}`);
        }
        const wall = performance.now() - t0;
        const c = process.cpuUsage(c0);
        if (round < WARMUP_ROUNDS) continue;
        const s = samples.get(task.name) ?? { wall: [], cpu: [] };
        s.wall.push(wall);
        s.cpu.push((c.user + c.system) / 1000);
        samples.set(task.name, s);
      }
    }
    const stat = (name: TaskName): { median: number; p90: number; cpu: number } => {
      const s = samples.get(name)!;
      const wall = [...s.wall].sort((a, b) => a - b);
      return {
        median: quantile(wall, 0.5),
        p90: quantile(wall, 0.9),
        cpu: quantile(
          [...s.cpu].sort((a, b) => a - b),
          0.5,
        ),
      };
    };
    const row = (name: TaskName, against: TaskName): string[] => {
      const a = stat(name);
      const b = stat(against);
      return [
        name,
        `${ms(a.median)} (${ms(a.p90)})`,
        ms(a.cpu),
        against === name ? '' : `${(a.median / b.median).toFixed(3)} of ${against}`,
        against === name ? '' : (a.cpu / b.cpu).toFixed(3),
      ];
    };
    console.log(
      formatTable(
        ['task', 'median (p90)', 'cpu median', 'ratio (medians)', 'ratio (cpu)'],
        [
          row('plan as before', 'plan as before'),
          row('judge all', 'plan as before'),
          row('judge from memo', 'plan as before'),
          row('engine, memos off', 'engine, memos off'),
          row('engine', 'engine, memos off'),
        ],
      ),
    );
    const before = stat('engine, memos off').median - stat('judge all').median + stat('plan as before').median;
    console.log(
      `\nbodies ${(BODY_BYTES / 1e6).toFixed(1)}-${(lastBytes / 1e6).toFixed(2)} MB. The engine before this change ran "plan as before" where it now runs`,
    );
    console.log(
      `"judge from memo": by the medians, engine before ~ memos off - judge all + plan as before = ${ms(before)} ms; engine now ${ms(stat('engine').median)} ms (${(stat('engine').median / before).toFixed(3)}).`,
    );
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
}

async function prepareAndObserve(engine: EpochEngine, body: Uint8Array): Promise<Prepared> {
  const prepared = await engine.prepare(messages(body));
  engine.observe(prepared, { status: 200, usage: usageAt(0.9) });
  return prepared;
}

/** The old latch step's decision, on a plan: what maybeLatch ran before it judged without hashing. */
function decideOn(plan: readonly PlannedBlock[], index: TranscriptIndex): unknown {
  return decideEpoch({
    reading: { contextTokens: 0.9 * WINDOW, window: WINDOW, epochsApplied: 1, requestBytes: index.byteLength },
    thresholds: { threshold: 0.7 },
    epochCount: 1,
    minGainFraction: 1,
    take: () => ({ kind: 'blocks', frozen: [], plan }),
  });
}

function mustIndex(body: Uint8Array): TranscriptIndex {
  const outcome = indexTranscript(body);
  if (outcome.kind !== 'indexed') throw new Error(`bench body does not index: ${outcome.detail}`);
  return outcome.index;
}
