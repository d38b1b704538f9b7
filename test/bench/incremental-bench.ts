/**
 * The rewrite's own time when a conversation grows (issue 10, "a rewrite that costs what is
 * new"): a Claude Code-shaped body of about 0.3, 1 and 4 MB, then the same conversation about
 * 20 KB later (the breakpoint moved, a turn added), rewritten from scratch (index, judge, splice,
 * check, as the proxy did before) and from the first body's memo (core/incremental-rewrite.ts),
 * interleaved in one run. Goal: the incremental time grows with the new bytes, not the body.
 */
import { createHash } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { DEFAULT_POLICY, freezeBlock, planElision } from '../../src/core/plan-elision.js';
import { indexIncrementally } from '../../src/core/rewrite/incremental-index.js';
import { indexTranscript } from '../../src/core/messages/transcript-index.js';
import { rewriteIncrementally } from '../../src/core/rewrite/incremental-rewrite.js';
import { rewriteRequest, type RewriteOptions } from '../../src/core/epochs/tool-results/tool-results.js';
import type { FrozenBlock } from '../../src/core/epoch-types.js';
import type { RewriteMemo } from '../../src/core/rewrite/rewrite-memo.js';
import { commonPrefixLength } from '../../src/rescue/common-prefix-length.js';
import { ClaudeCodeConversation } from './claude-code-body.js';
import { formatTable, measureInterleaved, ms, type MeasureOptions, type TaskStats } from './measure.js';

const ELIDED_DIR = '/home/dev/.local/state/ctxshed/elided';
const DEFAULT_SIZES = [300_000, 1_000_000, 4_000_000];
const GROWTH_BYTES = 20_000;
const DEFAULT_MEASURE: MeasureOptions = { warmupRounds: 5, minRounds: 15, maxRounds: 400, budgetMs: 10_000 };

/** What to run. */
export interface IncrementalBenchOptions {
  readonly sizes?: readonly number[];
  readonly measure?: Partial<MeasureOptions>;
  readonly log?: (line: string) => void;
}

/** The figures for one body size (milliseconds, medians unless named). */
export interface IncrementalBenchResult {
  readonly bytes: number;
  readonly grownBy: number;
  readonly stats: Readonly<Record<TaskName, TaskStats>>;
  /** incremental / from scratch, by medians. */
  readonly ratio: number;
  /** What the conversation's memo holds, in bytes (its estimate, as the memo cache counts it). */
  readonly memoBytes: number;
}

type TaskName = 'scratch' | 'incremental' | 'prefix';

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Runs the incremental rewrite benchmark and prints its table; returns the figures. */
export function runIncrementalBench(options: IncrementalBenchOptions = {}): IncrementalBenchResult[] {
  const log = options.log ?? ((line: string) => console.log(line));
  const measure = { ...DEFAULT_MEASURE, ...options.measure };
  log("## incremental: the rewrite of a grown request, from scratch and from the last request's memo");
  log(`(interleaved rounds, ${measure.warmupRounds} warm-up, then up to ${measure.budgetMs / 1000} s per size; all figures ms)`);
  log(
    `(${availableParallelism()} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} at start)\n`,
  );
  const results = (options.sizes ?? DEFAULT_SIZES).map((size) => benchOneSize(size, measure));
  log(
    formatTable(
      ['body', 'grown by', 'from scratch (p90)', 'incremental (p90)', 'incremental / scratch', 'same by CPU time', 'of which prefix compare', 'memo'],
      results.map(({ bytes, grownBy, stats, ratio, memoBytes }) => [
        `${(bytes / 1e6).toFixed(2)} MB`,
        `${(grownBy / 1000).toFixed(1)} KB`,
        `${ms(stats.scratch.median)} (${ms(stats.scratch.p90)})`,
        `${ms(stats.incremental.median)} (${ms(stats.incremental.p90)})`,
        ratio.toFixed(3),
        (stats.incremental.cpuMedian / stats.scratch.cpuMedian).toFixed(3),
        ms(stats.prefix.median),
        `${(memoBytes / 1e6).toFixed(1)} MB`,
      ]),
    ),
  );
  log('\n"from scratch" = indexTranscript + rewriteRequest (what the proxy ran per request); "incremental" =');
  log("indexIncrementally + rewriteIncrementally from the previous request's memo, output checked from the");
  log("last shared message on (the rest of the output is the memo's, already checked). Both include the body after messages.");
  return results;
}

function benchOneSize(size: number, measure: MeasureOptions): IncrementalBenchResult {
  const { before, after } = grownPair(size);
  const first = indexTranscript(before);
  if (first.kind !== 'indexed') throw new Error('bench body does not index');
  // Frozen as an epoch would be: every eligible block of the earlier request.
  const frozen: readonly FrozenBlock[] = planElision(before, first.index, DEFAULT_POLICY, sha256).map(freezeBlock);
  const options: RewriteOptions = { elidedDir: ELIDED_DIR, sha256, allocate: (n) => Buffer.allocUnsafe(n) };
  const memo = memoOf(before, frozen, options);
  const incremental = (): ReturnType<typeof rewriteIncrementally> =>
    rewriteIncrementally(after, frozen, options, indexIncrementally(after, memo, commonPrefixLength));
  const scratch = (): ReturnType<typeof rewriteRequest> => {
    const indexed = indexTranscript(after);
    if (indexed.kind !== 'indexed') throw new Error(indexed.detail);
    return rewriteRequest(after, frozen, { ...options, index: indexed.index });
  };
  const check = incremental();
  const expected = scratch();
  if (check.path !== 'incremental' || expected.kind !== 'applied' || !Buffer.from(check.outcome.body).equals(expected.body)) {
    throw new Error(`incremental rewrite differs from the full one at ${size} bytes (${check.path})`);
  }
  const stats = measureInterleaved(
    [
      { name: 'scratch', run: scratch },
      { name: 'incremental', run: incremental },
      { name: 'prefix', run: () => commonPrefixLength(before, after) },
    ],
    measure,
  );
  const byName = Object.fromEntries(stats.map((s) => [s.name, s])) as Record<TaskName, TaskStats>;
  const memoBytes = check.memo?.bytes ?? Number.NaN;
  return { bytes: after.length, grownBy: after.length - before.length, stats: byName, ratio: byName.incremental.median / byName.scratch.median, memoBytes };
}

function memoOf(body: Buffer, frozen: readonly FrozenBlock[], options: RewriteOptions): RewriteMemo {
  const memo = rewriteIncrementally(body, frozen, options, indexIncrementally(body, undefined, commonPrefixLength)).memo;
  if (memo === undefined) throw new Error('bench body did not rewrite');
  return memo;
}

/** Two requests of one conversation about `size` bytes, the second about GROWTH_BYTES longer. */
function grownPair(size: number): { before: Buffer; after: Buffer } {
  const conversation = new ClaudeCodeConversation({ targetBytes: size, seed: 20_251_130 });
  const bodies = [conversation.next()];
  // The first request after which the conversation has grown by about GROWTH_BYTES (one turn or a few).
  for (;;) {
    const next = conversation.next();
    bodies.push(next);
    const from = bodies.findIndex((b) => next.length - b.length <= GROWTH_BYTES * 1.25);
    if (from >= 0 && next.length - bodies[from]!.length >= GROWTH_BYTES * 0.75) return { before: bodies[from]!, after: next };
    if (bodies.length > 200) throw new Error('no pair grown by about 20 KB');
  }
}
