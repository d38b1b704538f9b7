/**
 * One epoch kind as the engine latches and applies it: the record each kind gives the registry
 * (latch-kinds.ts), so that the threshold latch and the overflow latch (maybe-latch.ts,
 * overflow-latch.ts) loop over the kinds instead of asking which one they hold. A kind whose latch
 * is its planner's take alone (core/epochs/epoch-planner.ts) is made by `plannedKind`; a kind with
 * steps of its own after the decision (the tool-result kind's labels, classifier and gate:
 * kinds/tool-results/tool-results-steps.ts) writes `choose` itself.
 */
import {
  decideOverflow,
  type ApiDialect,
  type CorrectionDeclined,
  type DecidedBlock,
  type EligibilityMemo,
  type EpochAsk,
  type EpochDecision,
  type EpochKindInfo,
  type KindTag,
  type EpochPart,
  type EpochPlanner,
  type EpochTake,
  type OverflowAsk,
  type ThresholdSettings,
  type TranscriptIndex,
} from '../core/index.js';
import type { ClassifierReport, EngineRequest, LatchNote } from './engine-types.js';
import type { ConversationEntry } from './conversation-table.js';
import type { KindMode } from './kind-mode.js';
import type { KindApply } from './kind-apply.js';
import type { LatchContext } from './latch-conversation.js';

/**
 * The conversation's eligibility memo (core/eligible-blocks.ts): what its last request over the
 * threshold judged, and where to keep what this one judges.
 */
export interface EligibilitySlot {
  readonly memo: EligibilityMemo | undefined;
  keep(memo: EligibilityMemo): void;
}

/** The engine's one decision (core/decide/decide-epoch.ts) with this request's reading, thresholds and turn. */
export type Decide = <B extends DecidedBlock>(take: () => EpochTake<B>) => EpochDecision<B>;

/**
 * The epoch this request latched, or why it held (every request over the threshold gets one of
 * the two), and ctxshed's own classifier call, if it made one.
 */
export type LatchOutcome = LatchNote & { readonly classifier?: ClassifierReport };

/** One request over the threshold, as a kind's `choose` reads it. */
export interface KindAsk {
  readonly epoch: EpochAsk;
  readonly entry: ConversationEntry;
  readonly api: ApiDialect;
  readonly headers: EngineRequest['headers'];
  readonly eligibility: EligibilitySlot;
  /** The thresholds the decision is taken with. */
  readonly thresholds: ThresholdSettings;
}

/** What the kind chose to latch (its part of the epoch), or the outcome that held. */
export type Chosen =
  | { readonly kind: 'latch'; readonly part: EpochPart; readonly midTurn: boolean; readonly classifier?: ClassifierReport }
  | { readonly kind: 'hold'; readonly outcome: LatchOutcome };

/** What an overflow latch of the kind settled: the part to latch, or why none. */
export type OverflowChosen =
  | { readonly latch: true; readonly part: EpochPart }
  | { readonly latch: false; readonly why: 'nothing_new' | 'not_enough' | CorrectionDeclined; readonly detail?: string };

/** One kind, as the engine's latches loop over it. */
export interface LatchKind {
  /** The kind's tag (core/epoch-types.ts `KindTag`): what its epochs freeze, and its key in a conversation's items. */
  readonly tag: KindTag;
  /**
   * The kind's mode row (kind-mode.ts): the `--mode` word that opens new conversations in it, and
   * that mode's defaults; absent: no `--mode` word opens it (a kind that takes a tag's
   * conversations from a kind registered before it, or a correction). A kind registered later with
   * a word a kind before it has opens that word's new conversations while it is registered.
   */
  readonly mode?: KindMode;
  /**
   * A kind with a new tag: its readers' half (core/epochs/kind-info.ts), registered with it by
   * `registerKind` (latch-kinds.ts). A built-in kind's is a line of `EPOCH_KIND_INFO`.
   */
  readonly info?: EpochKindInfo;
  /** Whether a body of this API can carry the kind's epochs (spans: not Chat Completions). */
  carries(api: ApiDialect): boolean;
  /** The threshold latch: the one decision on the kind's take, then the kind's own steps after it. */
  choose(ctx: LatchContext, ask: KindAsk, decide: Decide): Promise<Chosen>;
  /** The overflow latch: the kind's take on a refused request, weighed by core/overflow-decision.ts. */
  chooseOnOverflow(ctx: LatchContext, ask: OverflowAsk): OverflowChosen;
  /** The apply step: the body with the kind's frozen items (and the thinking removed) applied (kind-apply.ts). */
  readonly apply: KindApply;
  /** Whether the model's reads of the kind's items back count as refaults (count-refaults.ts): elided tool results do. */
  readonly refaults: boolean;
}

/** A kind whose latch is its planner's alone (`plannedKind`): its record, less what that makes. */
export interface PlannedKindSpec<C> {
  readonly tag: KindTag;
  readonly mode?: KindMode;
  readonly carries: (api: ApiDialect) => boolean;
  readonly plannerOf: (ctx: LatchContext) => EpochPlanner<C, EpochPart>;
  readonly apply: KindApply;
  readonly refaults?: boolean;
}

/** A kind whose latch is its planner's alone: decided once on its take, its choice made into its part. */
export function plannedKind<C>(spec: PlannedKindSpec<C>): LatchKind {
  const { tag, carries, plannerOf, apply } = spec;
  return {
    tag,
    ...(spec.mode === undefined ? {} : { mode: spec.mode }),
    carries,
    apply,
    refaults: spec.refaults === true,
    choose: async (ctx, ask, decide) => {
      const planner = plannerOf(ctx);
      const decision = decide(() => planner.take(ask.epoch));
      if (decision.kind !== 'latch') return { kind: 'hold', outcome: holdOf(decision, ask.epoch.index) };
      return { kind: 'latch', part: planner.epochOf(planner.chosen(decision), decision.gate), midTurn: decision.midTurn === true };
    },
    chooseOnOverflow: (ctx, ask) => {
      const planner = plannerOf(ctx);
      const decision = decideOverflow({ tokens: ask.tokens, limit: ask.limit, take: planner.takeOnOverflow(ask) });
      if (!decision.latch) return { latch: false, why: decision.why, ...(decision.detail === undefined ? {} : { detail: decision.detail }) };
      return { latch: true, part: planner.epochOf(decision.choice, decision.gate) };
    },
  };
}

/**
 * A decision that did not latch, as the outcome says it: its hold, with the gate's figures and
 * the span's sizes when it weighed one (replay's account of shed reads them), or nothing under
 * the threshold.
 */
export function holdOf(decision: EpochDecision<DecidedBlock>, index?: TranscriptIndex): LatchOutcome {
  if (decision.kind !== 'hold') return {};
  const { reason, detail, gate, span } = decision;
  const sizes = span === undefined || index === undefined ? {} : spanSizesOf(span, index);
  return { hold: { reason, detail, ...(gate === undefined ? {} : { gate }), ...sizes } };
}

/** A span's bytes, and the bytes from the message after it to the end of the last message. */
function spanSizesOf(span: { readonly last: number; readonly bytes: number }, index: TranscriptIndex): { spanBytes: number; windowBytes: number } {
  const last = index.messages[index.messages.length - 1];
  const after = index.messages[span.last + 1];
  return { spanBytes: span.bytes, windowBytes: after === undefined || last === undefined ? 0 : last.end - after.start };
}
