/** What replaying one session reports (replay-session.ts): the calibration, each strategy's figures, and the cost basis. */
import type { CompactionPoint } from './compaction-point.js';
import type { RecordedBill } from './recorded-bill.js';
import type { MissTally } from './miss-counter.js';
import type { RefaultFigure } from './replay-refaults.js';
import type { ShedHeld } from './shed-account.js';
import type { ShedEpochFigure } from './shed-epochs.js';
import type { StrategyName, StrategySummary } from './strategy-tally.js';
import type { WorkingSetFigure } from './working-set-tally.js';

/**
 * What every strategy is priced on (docs/economics.md): the session up to the main thread's
 * first compaction, and nothing after it. The conversation after a compaction is the client's
 * answer to a window the strategies may not have filled, and no transcript says what they would
 * have sent instead; so neither it nor the compaction's own call is priced, for any strategy.
 */
export const COST_BASIS = 'up to the first compaction, none after it (every strategy)';

/** The model against what the provider reported, for the session as recorded. */
export interface Calibration {
  /** (modelled - recorded) / recorded, summed over the session. */
  readonly cacheReadError: number;
  readonly cacheWriteError: number;
  /** The same for the whole context (input + cache read + cache write). */
  readonly contextError: number;
  /** Mean of |modelled - recorded| / recorded context per request. */
  readonly meanAbsRequestError: number;
  readonly tokensPerByte: number;
  /**
   * Requests where the provider read clearly less than the model (by over a tenth of the context):
   * cache misses the transcript cannot explain (a changed system prompt, an eviction). Their
   * extra writes are most of a large cache-write error.
   */
  readonly unexplainedMisses: { readonly requests: number; readonly extraWriteTokens: number };
  /**
   * Each request against the one before it in its conversation, billed warm or cold by the rule
   * of the TTL back-test (ttl-rules.ts), and the model's own figures judged by the same rule.
   */
  readonly misses: MissTally;
  /** The fitted system-prompt-and-tools size of each conversation. */
  readonly prefixTokens: Record<string, number>;
  readonly recorded: {
    readonly cacheReadTokens: number;
    readonly cacheWriteTokens: number;
    readonly uncachedTokens: number;
    readonly costUsd: number;
    readonly peakFullness: number;
  };
}

/** One session's replay. */
export interface SessionReport {
  readonly file: string;
  readonly requests: number;
  readonly conversations: number;
  readonly window: number;
  /** The token threshold in force (`--rescue-tokens`, or the default for a window over 200,000); absent: none. */
  readonly tokenThreshold?: number;
  readonly calibration: Calibration;
  readonly strategies: Record<StrategyName, StrategySummary>;
  /** Shed mode's epochs, one figure each: its shed is reported per epoch, never as a session sum. */
  readonly shedEpochs: readonly ShedEpochFigure[];
  /**
   * Requests over the threshold on which shed latched nothing, by why (the engine's hold, `Prepared.hold`), and the
   * gate's figures the first time the gate held back.
   */
  readonly shedHeld: ShedHeld;
  /** Why the rescue, the shed or the per-request rewrite left a request, block or span alone (not "no epoch"). */
  readonly passthrough: Record<string, number>;
  readonly stateFailures: readonly string[];
  /** Models the price table does not know: their requests are left unpriced (never priced as another model). */
  readonly unpricedModels: readonly string[];
  /** `--price-as MODEL`: every request billed at this model's prices. */
  readonly priceAs?: string;
  /** The compaction point as a fraction of the window (compaction-point.ts). */
  readonly autoCompactAt: number;
  /** The compaction point in tokens, where it came from, and the recorded first compaction. */
  readonly compactionPoint: CompactionPoint;
  /**
   * The count the runway estimates ('~') run to where it is not `compactionPoint.tokens`: the
   * recorded conversation's last count, where the client compacted short of the point by its own
   * reckoning (finish-runways.ts `estimateTarget`).
   */
  readonly runwayEstimateTokens?: number;
  /** What cost is priced on (`COST_BASIS`), and the requests left out under it. */
  readonly costBasis: { readonly basis: string; readonly replayedRequests: number; readonly afterCompactionRequests: number };
  /** Rescue's refaults: elided blocks whose file the session read again later (replay-refaults.ts). */
  readonly refaults: RefaultFigure;
  /** The same for shed mode: tool results in its spans whose file the session read again later. */
  readonly shedRefaults: RefaultFigure;
  /** The same for the rewriting strategies: blocks stubbed (per-request) or cleared (clear_tool_uses) whose file the session read again later. */
  readonly rewriteRefaults: Record<'perRequest' | 'clearToolUses', RefaultFigure>;
  /**
   * Each engine strategy's working set (working-set-tally.ts): the requests held for it, by its two
   * hold reasons, and its size (the largest, and how many requests had one).
   */
  readonly workingSet: Record<'rescue' | 'shed', WorkingSetFigure>;
  /**
   * The recorded session whole, as the user paid for it: every request priced by the model as
   * the strategies are, the compaction calls from their own usage records. Absent on a stitched replay.
   */
  readonly recordedWithCompaction?: RecordedWithCompaction;
  /**
   * What was paid: every request of the session as recorded, billed from its recorded usage at the
   * price table (recorded-bill.ts). Absent on a stitched replay, whose usage past a compaction is estimated.
   */
  readonly paid?: RecordedBill;
  /** Lines of the session file that were not JSON records, and the first (read-sessions.ts). */
  readonly skippedLines?: { readonly lines: number; readonly firstLine?: number };
}

/**
 * The recorded session with its compaction, modelled as the strategies are (session-run.ts
 * `RecordedWhole`, rounded): the like-for-like baseline the strategies' whole-session costs are
 * set against. What was paid is `SessionReport.paid`.
 */
export interface RecordedWithCompaction {
  readonly costUsd: number;
  readonly cacheWriteTokens: number;
  readonly compactionCalls: { readonly requests: number; readonly costUsd: number };
  /** Models the price table does not know among its requests: the cost is then a floor. */
  readonly unpricedModels: readonly string[];
}
