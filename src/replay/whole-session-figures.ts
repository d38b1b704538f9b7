/**
 * Each strategy over the whole session (issue 27), set against both baselines: the recorded
 * session with its compaction (what the user paid) and the recorded session stitched, never
 * compacting (the whole history sent whole, refused once it outgrows the window). Pure.
 */
import type { RecordedBill } from './recorded-bill.js';
import type { RefaultFigure } from './replay-refaults.js';
import type { RunwayEnd } from './runway.js';
import type { RecordedWithCompaction, SessionReport } from './session-report.js';
import { STRATEGIES, type StrategyName, type StrategySummary } from './strategy-tally.js';

/** What the whole-session figures are priced on. */
export const WHOLE_SESSION_BASIS =
  'the whole session, as if the client never compacted (compaction boundary and summary dropped, the prompt past it estimated from bytes)';

/** One strategy over the whole session. */
export interface WholeSessionFigure {
  readonly costUsd: number;
  /** Models the price table does not know among the requests priced: the cost is then a floor (`>=`), never a silent zero. */
  readonly unpricedModels: readonly string[];
  readonly cacheWriteTokens: number;
  /** Prompts the API would have refused as too long (never billed): a cost with refusals is not comparable. */
  readonly refused: number;
  /**
   * Requests answered before the client would have compacted; `measured` false when the data
   * ran out first (then `requests` is a floor: "at least"). `ratio`: over the recorded runway.
   */
  readonly runway: { readonly requests: number; readonly ratio: number | null; readonly measured: boolean };
  /**
   * The cost as a fraction above (+) or below (-) each baseline, like for like (both modelled as the
   * strategies are: the recorded session with its compaction, and never compacting); null when the baseline is 0.
   */
  readonly vs: { readonly recordedWithCompaction: number | null; readonly recordedWithoutCompaction: number | null };
  /** Cache writes over the recorded session's with its compaction (modelled); null when that is 0. */
  readonly cacheWriteRatio: number | null;
  /** Epochs latched (rescue, shed) or elided sets changed (the rewrites), over the whole session. */
  readonly epochs: number;
  /** Thinking blocks the main thread's requests sent, and those removed from the client's body. */
  readonly thinking: { readonly sent: number; readonly removed: number };
  /**
   * Blocks the strategy took out that the session read back later, over the whole session (after
   * the first compaction point too): replay-refaults.ts. Null for the recorded session, which takes nothing out.
   */
  readonly refaults: RefaultFigure | null;
}

/** The session-level facts of the whole-session replay. */
export interface WholeSessionSummary {
  readonly basis: string;
  /** Compactions stitched over, and requests whose prompt was estimated from bytes. */
  readonly compactionsStitched: number;
  readonly estimatedRequests: number;
  readonly baselines: {
    /** What was paid: the session's recorded usage billed at the price table (recorded-bill.ts). */
    readonly paid: RecordedBill;
    /**
     * The recorded session with its compaction, modelled as the strategies are: the like-for-like
     * baseline of `vs.recordedWithCompaction`; `ratioToPaid` is its cost over what was paid (null when nothing was).
     */
    readonly recordedWithCompaction: RecordedWithCompaction & { readonly ratioToPaid: number | null };
    readonly recordedWithoutCompaction: {
      readonly costUsd: number;
      readonly cacheWriteTokens: number;
      readonly refused: number;
      readonly unpricedModels: readonly string[];
    };
  };
  /** Each engine strategy's working set over the whole session (the report's `workingSet` is up to the first compaction). */
  readonly workingSet: SessionReport['workingSet'];
}

/** A report whose strategies carry `wholeSession`. */
export type WholeSessionReport = Omit<SessionReport, 'strategies'> & {
  readonly strategies: Record<StrategyName, StrategySummary & { readonly wholeSession: WholeSessionFigure }>;
  readonly wholeSession: WholeSessionSummary;
};

const MEASURED: ReadonlySet<RunwayEnd> = new Set(['compaction_point', 'refusal', 'recorded_compaction']);

/** Adds the whole-session figures of `whole` (a stitched replay) to `report` (the same session, up to its first compaction). */
export function withWholeSession(report: SessionReport, whole: SessionReport, stitch: { compactions: number; estimated: number }): WholeSessionReport {
  const modelled = report.recordedWithCompaction ?? {
    costUsd: report.strategies.recorded.costUsd,
    cacheWriteTokens: report.strategies.recorded.cacheWriteTokens,
    compactionCalls: { requests: 0, costUsd: 0 },
    unpricedModels: report.unpricedModels,
  };
  const paid = report.paid ?? NOTHING_PAID;
  const never = whole.strategies.recorded;
  // The ratio's base is the recorded runway only where the data measured it (the client compacted,
  // or reached the point): at a window the session never filled it would be an extrapolation.
  const recordedRunway = report.strategies.recorded.runway;
  const base = MEASURED.has(recordedRunway.end) ? recordedRunway.requests : 0;
  const figure = (s: StrategyName): WholeSessionFigure => {
    const w = whole.strategies[s];
    return {
      costUsd: w.costUsd,
      unpricedModels: whole.unpricedModels,
      cacheWriteTokens: w.cacheWriteTokens,
      refused: w.refused,
      runway: { requests: w.runway.requests, ratio: base > 0 ? round2(w.runway.requests / base) : null, measured: MEASURED.has(w.runway.end) },
      vs: { recordedWithCompaction: fraction(w.costUsd, modelled.costUsd), recordedWithoutCompaction: fraction(w.costUsd, never.costUsd) },
      cacheWriteRatio: modelled.cacheWriteTokens > 0 ? round2(w.cacheWriteTokens / modelled.cacheWriteTokens) : null,
      epochs: w.epochs,
      thinking: { sent: w.thinking.sent, removed: w.thinking.removed },
      refaults: refaultsOf(whole, s),
    };
  };
  const strategies = Object.fromEntries(STRATEGIES.map((s) => [s, { ...report.strategies[s], wholeSession: figure(s) }])) as WholeSessionReport['strategies'];
  return {
    ...report,
    strategies,
    wholeSession: {
      basis: WHOLE_SESSION_BASIS,
      compactionsStitched: stitch.compactions,
      estimatedRequests: stitch.estimated,
      baselines: {
        paid,
        recordedWithCompaction: { ...modelled, ratioToPaid: paid.costUsd > 0 ? round2(modelled.costUsd / paid.costUsd) : null },
        recordedWithoutCompaction: {
          costUsd: never.costUsd,
          cacheWriteTokens: never.cacheWriteTokens,
          refused: never.refused,
          unpricedModels: whole.unpricedModels,
        },
      },
      workingSet: whole.workingSet,
    },
  };
}

/** A strategy's refaults in a report: rescue's, shed's, the rewriting strategies'; none for the recorded session. */
function refaultsOf(report: SessionReport, s: StrategyName): RefaultFigure | null {
  switch (s) {
    case 'recorded':
      return null;
    case 'rescue':
      return report.refaults;
    case 'shed':
      return report.shedRefaults;
    default:
      return report.rewriteRefaults[s];
  }
}

/** A report without a bill (a stitched replay's): nothing paid that it knows of. */
const NOTHING_PAID: RecordedBill = {
  costUsd: 0,
  requests: 0,
  parts: { main: { requests: 0, costUsd: 0 }, subagents: { requests: 0, costUsd: 0 }, compactionCalls: { requests: 0, costUsd: 0 } },
  unpricedModels: [],
  unpricedRequests: 0,
};

function fraction(cost: number, baseline: number): number | null {
  return baseline > 0 ? Math.round((cost / baseline - 1) * 10_000) / 10_000 : null;
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}
