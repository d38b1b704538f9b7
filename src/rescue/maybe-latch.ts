/**
 * Whether this request latches a new epoch of its conversation's kind, and latching it when it
 * does: one path for both kinds (core/epochs/). The decision is core/decide-epoch.ts's on what the
 * kind would take out; the tool-result kind first decides on the blocks' sizes, and after the plan
 * takes its own steps (labels, the classifier, `--gate`: tool-results-steps.ts); the span kind
 * weighs the burst gate inside its take. The record is core/plan-record.ts's, the write
 * latch-conversation.ts's (files durable first, then the record).
 */
import {
  crossedThreshold,
  decideEpoch,
  DEFAULT_LATCH_AT,
  firedThreshold,
  planRecord,
  turnPlaceOf,
  type ApiDialect,
  type DecidedBlock,
  type EpochAsk,
  type EpochDecision,
  type EpochTake,
  type EpochPlanner,
  type FullnessReading,
  type GateDecision,
  type LatchHold,
  type PlannerKind,
  type ThresholdFired,
  type ThresholdSettings,
  type TranscriptIndex,
  thresholdsFor,
} from '../core/index.js';
import { errorText } from '../errors.js';
import type { ConversationEntry } from './conversation-table.js';
import type { ClassifierReport, EngineRequest } from './engine-types.js';
import { latchWith, type LatchContext } from './latch-conversation.js';
import { latestFrozen, spansOf, toolResultsOf } from './latch-kinds.js';
import { afterDecision, takeOnSizes, type EligibilitySlot } from './tool-results-steps.js';

/** The engine's one decision (core/decide-epoch.ts) with this request's reading, thresholds and turn. */
type Decide = <B extends DecidedBlock>(take: () => EpochTake<B>) => EpochDecision<B>;

export type { EligibilitySlot } from './tool-results-steps.js';

/**
 * The epoch this request latched, or why it held (every request over the threshold gets one of
 * the two), and ctxshed's own classifier call, if it made one.
 */
export interface LatchOutcome {
  readonly latched?: number;
  readonly hold?: LatchHold;
  readonly classifier?: ClassifierReport;
}

/** One request, as the latch needs it. */
export interface LatchAsk {
  readonly entry: ConversationEntry;
  readonly body: Uint8Array;
  readonly index: TranscriptIndex;
  readonly api: ApiDialect;
  readonly headers: EngineRequest['headers'];
  readonly agentId: string | undefined;
  readonly onStateFailure: (error: unknown) => void;
  readonly eligibility: EligibilitySlot;
  /** The request came back after a gap past its cache TTL (core/cache-cold.ts): the cold threshold applies. */
  readonly cold?: boolean;
}

/** The thresholds in force for one request (core/cache-cold.ts): `cold` when the cold one is. */
type Thresholds = ReturnType<typeof thresholdsFor>;

/** The reading the decision was taken on, and the thresholds it was taken with: the epoch records both. */
interface Decided {
  readonly reading: FullnessReading;
  readonly thresholds: Thresholds;
}

/** Cheap test first: planning hashes every eligible block, so only plan when a latch is possible. */
export function isOverThreshold(entry: ConversationEntry, settings: ThresholdSettings): boolean {
  const { reading } = entry;
  return reading !== undefined && crossedThreshold(reading, settings) !== undefined;
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

/** What the kind chose to latch, or the outcome that held. */
type Chosen<C> =
  | { readonly kind: 'latch'; readonly choice: C; readonly gate: GateDecision | undefined; readonly midTurn: boolean; readonly classifier?: ClassifierReport }
  | { readonly kind: 'hold'; readonly outcome: LatchOutcome };

/**
 * Decides and, when that says latch, plans and latches an epoch of `kind`. A state failure is
 * reported through `onStateFailure`, never thrown.
 */
export async function maybeLatch(ctx: LatchContext, kind: PlannerKind, ask: LatchAsk): Promise<LatchOutcome> {
  const { entry, body, index } = ask;
  const { reading } = entry;
  if (reading === undefined) return {};
  const thresholds = thresholdsFor(ctx.settings, ask.cold === true);
  const decide = deciderOf(ctx, entry, index, reading, thresholds);
  const bringBacks = entry.record?.bringBacks === undefined ? {} : { bringBacks: entry.record.bringBacks };
  const epochAsk: EpochAsk = {
    body,
    index,
    reading,
    frozen: entry.frozen,
    spans: entry.spans,
    latest: latestFrozen(entry),
    ...bringBacks,
    readCalls: ask.api.calls,
  };
  const decided: Decided = { reading, thresholds };
  if (kind === 'span') return latchChosen(ctx, ask, decided, spansOf(ctx), chooseOn(spansOf(ctx), epochAsk, decide));
  // One decision, on the blocks' sizes; the kind's steps after it (hashes, labels, the gate) decide nothing again.
  const planner = toolResultsOf(ctx);
  const decision = decide(() => takeOnSizes(ctx, planner, epochAsk, ask.eligibility));
  if (decision.kind !== 'latch') return holdOf(decision);
  const steps = await afterDecision(ctx, planner, epochAsk, ask, { decision, thresholds });
  const by = steps.classifier === undefined ? {} : { classifier: steps.classifier };
  if (steps.kind === 'hold') return { ...holdOf(steps.decision), ...by };
  return latchChosen(ctx, ask, decided, planner, { kind: 'latch', choice: steps.choice, gate: steps.gate, midTurn: decision.midTurn === true, ...by });
}

/** The kind's take, decided; what it chose when that latches. */
function chooseOn<C>(planner: EpochPlanner<C>, ask: EpochAsk, decide: Decide): Chosen<C> {
  const decision = decide(() => planner.take(ask));
  if (decision.kind !== 'latch') return { kind: 'hold', outcome: holdOf(decision, ask.index) };
  return { kind: 'latch', choice: planner.chosen(decision), gate: decision.gate, midTurn: decision.midTurn === true };
}

/** Writes the chosen epoch: one record for both kinds, and a hold reason when none is written. */
async function latchChosen<C>(ctx: LatchContext, ask: LatchAsk, decided: Decided, planner: EpochPlanner<C>, chosen: Chosen<C>): Promise<LatchOutcome> {
  if (chosen.kind === 'hold') return chosen.outcome;
  const { entry, body, index, api } = ask;
  const { reading, thresholds } = decided;
  const by = chosen.classifier === undefined ? {} : { classifier: chosen.classifier };
  const part = planner.epochOf(chosen.choice, chosen.gate);
  const facts = {
    reading,
    firstPrompt: api.firstPrompt(body, index),
    model: index.model ?? '',
    agentId: ask.agentId,
    ...firedOf(reading, thresholds),
    ...(thresholds.cold === true ? { cold: true as const } : {}),
  };
  // Only an API with thinking blocks has thinking for the epoch to freeze (core/thinking/freeze-in-plan.ts).
  const from = api.supports.thinking ? { body, index, ...(chosen.midTurn ? { midTurn: true } : {}) } : undefined;
  try {
    const write = await latchWith(
      ctx,
      entry,
      (current) => planRecord({ key: entry.key, current, facts, threshold: thresholds.threshold, part, now: ctx.now() }),
      from,
    );
    if (write.kind === 'latched') return { latched: write.n, ...by };
    if (write.why === 'empty_message')
      return { hold: { reason: 'empty_message', detail: 'removing the thinking after the edit would leave an assistant message empty' }, ...by };
    return { hold: { reason: 'concurrent_latch', detail: 'another latch got there first' }, ...by };
  } catch (error) {
    ask.onStateFailure(error);
    return { hold: { reason: 'state_unavailable', detail: errorText(error) }, ...by };
  }
}

/** The engine's decision with this request's reading, thresholds and place in the turn. */
function deciderOf(ctx: LatchContext, entry: ConversationEntry, index: TranscriptIndex, reading: FullnessReading, thresholds: Thresholds): Decide {
  const { minGainFraction } = ctx.settings;
  const { threshold, rescueTokens } = thresholds;
  const turn = turnPlaceOf(index, entry.record?.prefixCheck !== undefined, ctx.settings.latchAt ?? DEFAULT_LATCH_AT);
  const decideWith = ctx.decide ?? decideEpoch;
  return (take) =>
    decideWith({
      reading,
      threshold,
      ...(rescueTokens === undefined ? {} : { rescueTokens }),
      epochCount: entry.record?.epochs.length ?? 0,
      ...(minGainFraction === undefined ? {} : { minGainFraction }),
      turn,
      take,
    });
}

/** The epoch reason's threshold fields (core/latch-threshold.ts), as a spread for a latch's facts. */
export function firedOf(reading: FullnessReading, settings: ThresholdSettings): { readonly fired?: ThresholdFired } {
  const fired = firedThreshold(reading, settings);
  return fired === undefined ? {} : { fired };
}
