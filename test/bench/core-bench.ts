/**
 * The core's cost on Claude Code-shaped bodies, against what a JSON.parse-based proxy would pay.
 * Goal (from the issue): the whole rewrite costs at most half of one JSON.parse of the body.
 */
import { createHash } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { checkRewrite, type StubbedBlock } from '../../src/core/epochs/tool-results/check-tool-results.js';
import { DEFAULT_POLICY, freezeBlock, planElision } from '../../src/core/plan-elision.js';
import { encodeJsonString } from '../../src/core/json-string.js';
import { indexTranscript } from '../../src/core/messages/transcript-index.js';
import { renderStub } from '../../src/core/stub.js';
import { rewriteRequest } from '../../src/core/epochs/tool-results/tool-results.js';
import { scanDocument } from '../../src/core/json-scan.js';
import type { FrozenBlock } from '../../src/core/epoch-types.js';
import type { TranscriptIndex } from '../../src/core/transcript-index-types.js';
import { buildClaudeCodeBody } from './claude-code-body.js';
import { formatTable, measureInterleaved, ms, type BenchTask, type MeasureOptions, type TaskStats } from './measure.js';

/** What to run. */
export interface CoreBenchOptions {
  /** Body sizes in bytes. */
  readonly sizes?: readonly number[];
  readonly measure?: Partial<MeasureOptions>;
  readonly log?: (line: string) => void;
}

/** The figures for one body size (milliseconds, medians unless named). */
export interface CoreBenchResult {
  readonly bytes: number;
  readonly stubs: number;
  readonly stats: Readonly<Record<TaskName, TaskStats>>;
  /** rewrite / (decode + JSON.parse). */
  readonly ratioToParse: number;
  readonly meetsGoal: boolean;
}

type TaskName = 'rewrite' | 'parse' | 'parseOnly' | 'roundTrip' | 'index' | 'rewriteGivenIndex' | 'selfCheck' | 'scan' | 'hashes' | 'indexPlain';

const ELIDED_DIR = '/home/dev/.local/state/ctxshed/elided';
const GOAL_RATIO = 0.5;
const DEFAULT_SIZES = [300_000, 1_000_000, 4_000_000];
const DEFAULT_MEASURE: MeasureOptions = { warmupRounds: 5, minRounds: 12, maxRounds: 400, budgetMs: 12_000 };

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Runs the core benchmark and prints its tables; returns the figures. */
export function runCoreBench(options: CoreBenchOptions = {}): CoreBenchResult[] {
  const log = options.log ?? ((line: string) => console.log(line));
  const measure = { ...DEFAULT_MEASURE, ...options.measure };
  const results: CoreBenchResult[] = [];
  log('## core: rewrite vs JSON.parse on Claude Code-shaped bodies');
  log(`(interleaved rounds, ${measure.warmupRounds} warm-up, then up to ${measure.budgetMs / 1000} s per size; all figures ms)`);
  // Wall-clock medians on a shared machine: say how busy it was, so figures are read with that in mind.
  log(
    `(${availableParallelism()} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} at start)\n`,
  );
  for (const size of options.sizes ?? DEFAULT_SIZES) {
    const result = benchOneSize(size, measure);
    results.push(result);
    log(`${mb(result.bytes)}: ${result.stubs} stubs, ${result.stats.rewrite.rounds} rounds`);
  }
  log('');
  log(
    formatTable(
      [
        'size',
        'rewrite (p90)',
        'decode+parse (p90)',
        'parse alone',
        'parse+stringify+encode',
        'rewrite/parse',
        'rewrite/(parse+stringify)',
        `goal <= ${GOAL_RATIO}`,
        'same ratio by CPU time',
      ],
      results.map(({ bytes, stats, ratioToParse, meetsGoal }) => [
        mb(bytes),
        `${ms(stats.rewrite.median)} (${ms(stats.rewrite.p90)})`,
        `${ms(stats.parse.median)} (${ms(stats.parse.p90)})`,
        ms(stats.parseOnly.median),
        ms(stats.roundTrip.median),
        ratioToParse.toFixed(2),
        (stats.rewrite.median / stats.roundTrip.median).toFixed(2),
        meetsGoal ? 'met' : 'MISSED',
        (stats.rewrite.cpuMedian / stats.parse.cpuMedian).toFixed(2),
      ]),
    ),
  );
  log("\nWhere the rewrite's time goes (medians; the rewrite = index + rewrite given index, which includes the self-check):\n");
  log(
    formatTable(
      ['size', 'index', 'rewrite given index', 'self-check', 'one scanDocument pass', 'sha256 of frozen JSON', 'index of a plain Uint8Array copy'],
      results.map(({ bytes, stats }) => [
        mb(bytes),
        ms(stats.index.median),
        ms(stats.rewriteGivenIndex.median),
        ms(stats.selfCheck.median),
        ms(stats.scan.median),
        ms(stats.hashes.median),
        ms(stats.indexPlain.median),
      ]),
    ),
  );
  return results;
}

function benchOneSize(size: number, measure: MeasureOptions): CoreBenchResult {
  const { bytes: body } = buildClaudeCodeBody({ targetBytes: size, seed: 20_251_130 });
  const index = mustIndex(body);
  // Frozen once beforehand, as an epoch would be: every eligible block of this very body.
  const frozen = planElision(body, index, DEFAULT_POLICY, sha256).map(freezeBlock);
  // As the proxy runs it (src/rescue/epoch-engine.ts): the output is a Buffer.
  const options = { elidedDir: ELIDED_DIR, sha256, allocate: (n: number) => Buffer.allocUnsafe(n) };
  const first = rewriteRequest(body, frozen, { ...options, index });
  if (first.kind !== 'applied' || first.stubs !== frozen.length)
    throw new Error(`bench body did not rewrite: ${JSON.stringify(first.kind === 'passthrough' ? first.reason : first.stubs)}`);
  const stubbed = stubsOf(index, frozen);
  const text = body.toString('utf8');
  // The same bytes in a plain Uint8Array (what applySplices returns, and what the self-check
  // indexes): Uint8Array#indexOf is V8's, several times slower than Buffer#indexOf (memchr).
  const plain = new Uint8Array(body);
  const tasks: Record<TaskName, BenchTask['run']> = {
    rewrite: () => {
      const indexed = indexTranscript(body);
      if (indexed.kind !== 'indexed') throw new Error(indexed.detail);
      return rewriteRequest(body, frozen, { ...options, index: indexed.index });
    },
    parse: () => JSON.parse(body.toString('utf8')),
    parseOnly: () => JSON.parse(text),
    roundTrip: () => Buffer.from(JSON.stringify(JSON.parse(body.toString('utf8'))), 'utf8'),
    index: () => indexTranscript(body),
    rewriteGivenIndex: () => rewriteRequest(body, frozen, { ...options, index }),
    selfCheck: () => checkRewrite(body, index, first.body, stubbed),
    scan: () => scanDocument(body),
    indexPlain: () => indexTranscript(plain),
    // What the rewrite checks per frozen block: the sha256 of its content's JSON bytes.
    hashes: () =>
      frozen.map((block) => {
        const { start, end } = index.toolResults[block.ordinal]!.content;
        return sha256(body.subarray(start, end));
      }),
  };
  const stats = measureInterleaved(
    Object.entries(tasks).map(([name, run]) => ({ name, run })),
    measure,
  );
  const byName = Object.fromEntries(stats.map((s) => [s.name, s])) as Record<TaskName, TaskStats>;
  const ratioToParse = byName.rewrite.median / byName.parse.median;
  return { bytes: body.length, stubs: frozen.length, stats: byName, ratioToParse, meetsGoal: ratioToParse <= GOAL_RATIO };
}

function mustIndex(body: Uint8Array): TranscriptIndex {
  const indexed = indexTranscript(body);
  if (indexed.kind !== 'indexed') throw new Error(`bench body does not index: ${indexed.detail}`);
  return indexed.index;
}

const ENCODER = new TextEncoder();

function stubsOf(index: TranscriptIndex, frozen: readonly FrozenBlock[]): StubbedBlock[] {
  return frozen.map((block) => {
    const target = index.toolResults[block.ordinal]!;
    const bytes = encodeJsonString(ENCODER.encode(renderStub(block, ELIDED_DIR)));
    return { ordinal: block.ordinal, splice: { start: target.content.start, end: target.content.end, bytes } };
  });
}

function mb(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(2)} MB`;
}
