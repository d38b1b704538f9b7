/**
 * What a kind would take out on a request over the threshold, and the decision that latches it:
 * the types the kinds (shed/, epochs/) hand to the decision (core/decide/decide-epoch.ts) and take
 * back from it. In the base, so that the kinds below the decision name them without importing it.
 */
import type { GateDecision, GateInput } from './break-even.js';
import type { FrozenBlock } from './epoch-types.js';
import type { FullnessReading } from './fullness-reading.js';
import type { DecidedBlock } from './weigh-added.js';
import type { PlannedSpan, ShedFit, ShedRefusal } from './shed/shed-types.js';
import type { WorkingSetHold } from './working-set-holds.js';

/** What this request's epoch would take out, as each mode plans it. */
export type EpochTake<B extends DecidedBlock> =
  /** Shed mode found no span to shed (or the working set held it: core/epochs/working-set.ts). */
  | { readonly kind: 'none'; readonly reason: ShedRefusal | WorkingSetHold; readonly detail: string }
  /**
   * Rescue mode: the plan's blocks (those frozen already are left out) and, with `--gate`, the
   * gate's input for the blocks added; `keptByWorkingSet`, the eligible blocks the working set kept out of it.
   */
  | {
      readonly kind: 'blocks';
      readonly frozen: readonly FrozenBlock[];
      readonly plan: readonly B[];
      readonly gate?: (added: readonly B[]) => GateInput;
      readonly keptByWorkingSet?: number;
      /** With `keptByWorkingSet`: whether the request is at the gate's ceiling, where what stays is what the window cannot take. */
      readonly nearWindow?: boolean;
      /** The ordinals of the plan's blocks that answer a call that brought stored text back: no new weight (issue 39). */
      readonly broughtBack?: ReadonlySet<number>;
      /** The reading pressed up to this request (core/epochs/request-tokens.ts); absent: the last reading. */
      readonly reading?: FullnessReading;
    }
  /**
   * Shed mode: the span, the gate's input for it (the gate always weighs a span), the recent
   * window's budget it was planned with, and near the window what it expects the request to weigh.
   */
  | {
      readonly kind: 'span';
      readonly span: PlannedSpan;
      readonly gate: GateInput;
      readonly recentTokens: number;
      readonly fit?: ShedFit;
      /** Bytes of the span's tool_results that answer a call that brought stored text back. */
      readonly broughtBackBytes?: number;
      /** Whether a working set is in front of the model since the person's latest prompt (what no epoch takes). */
      readonly holdsWorkingSet?: boolean;
      /** Near the window: the span takes what the window forces out of the working set (core/shed/plan-to-fit.ts). */
      readonly forcedWorkingSet?: true;
      /** As the blocks' take's. */
      readonly reading?: FullnessReading;
    };

/** A decision that latches: what the epoch adds, and what it was weighed at. */
export interface EpochLatch<B extends DecidedBlock> {
  readonly kind: 'latch';
  readonly fullness: number;
  readonly estimatedTokensFreed: number;
  /** Rescue mode: the blocks the epoch adds. */
  readonly added: readonly B[];
  /** Shed mode: the span the epoch freezes, its recent window's budget and fit. */
  readonly span?: PlannedSpan;
  readonly recentTokens?: number;
  readonly fit?: ShedFit;
  readonly gate?: GateDecision;
  /** On a prefix-check model: latched while the newest message was not a person's prompt. */
  readonly midTurn?: true;
}
