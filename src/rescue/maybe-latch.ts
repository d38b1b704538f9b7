/**
 * Whether this request latches a new epoch of its conversation's kind, and latching it when it
 * does: one path for every kind in the registry (latch-kinds.ts). The decision is
 * core/decide/decide-epoch.ts's, made once, on what the kind would take out; the kind's `choose` takes
 * its own steps after it (latch-kind.ts). The record is core/plan-record.ts's, the write
 * latch-conversation.ts's (files durable first, then the record).
 */
import {
  crossedThreshold,
  decideEpoch,
  firedThreshold,
  planRecord,
  turnPlaceOf,
  type ApiDialect,
  type EpochAsk,
  type FullnessReading,
  type RequestThresholds,
  type ThresholdFired,
  type ThresholdSettings,
  type TranscriptIndex,
} from '../core/index.js';
import { errorText } from '../errors.js';
import type { ConversationEntry } from './conversation-table.js';
import type { EngineRequest } from './engine-types.js';
import { latchWith, type LatchContext } from './latch-conversation.js';
import type { Chosen, Decide, EligibilitySlot, LatchKind, LatchOutcome } from './latch-kind.js';
import { latestFrozen } from './latch-kinds.js';

export type { LatchOutcome } from './latch-kind.js';
export { holdOf } from './latch-kind.js';
export type { EligibilitySlot } from './latch-kind.js';

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
  /**
   * The thresholds in force for this request (core/cache-cold.ts `thresholdsFor`, asked once by the
   * engine): `cold` when the request came back after a gap past its cache TTL and the cold one is.
   */
  readonly thresholds: RequestThresholds;
}

/** The reading the decision was taken on, and the thresholds it was taken with: the epoch records both. */
interface Decided {
  readonly reading: FullnessReading;
  readonly thresholds: RequestThresholds;
}

/** Cheap test first: planning hashes every eligible block, so only plan when a latch is possible. */
export function isOverThreshold(entry: ConversationEntry, settings: ThresholdSettings): boolean {
  const { reading } = entry;
  return reading !== undefined && crossedThreshold(reading, settings) !== undefined;
}

/**
 * Decides and, when that says latch, plans and latches an epoch of `kind`. A state failure is
 * reported through `onStateFailure`, never thrown.
 */
export async function maybeLatch(ctx: LatchContext, kind: LatchKind, ask: LatchAsk): Promise<LatchOutcome> {
  const { entry, body, index } = ask;
  const { reading } = entry;
  if (reading === undefined) return {};
  const { thresholds } = ask;
  const decide = deciderOf(ctx, entry, index, reading, thresholds);
  const bringBacks = entry.record?.bringBacks === undefined ? {} : { bringBacks: entry.record.bringBacks };
  const epoch: EpochAsk = {
    body,
    index,
    reading,
    items: entry.items,
    latest: latestFrozen(entry),
    ...bringBacks,
    readCalls: ask.api.calls,
    readFacts: ask.api.messageFacts,
    modelCalls: ask.api.modelCalls(index),
    ...(ask.api.partSites === undefined ? {} : { readParts: ask.api.partSites }),
  };
  const chosen = await kind.choose(ctx, { epoch, entry, api: ask.api, headers: ask.headers, eligibility: ask.eligibility, thresholds }, decide);
  return latchChosen(ctx, ask, { reading, thresholds }, chosen);
}

/** Writes the chosen epoch: one record for every kind, and a hold reason when none is written. */
async function latchChosen(ctx: LatchContext, ask: LatchAsk, decided: Decided, chosen: Chosen): Promise<LatchOutcome> {
  if (chosen.kind === 'hold') return chosen.outcome;
  const { entry, body, index, api } = ask;
  const { reading, thresholds } = decided;
  const { part } = chosen;
  const by = chosen.classifier === undefined ? {} : { classifier: chosen.classifier };
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
function deciderOf(ctx: LatchContext, entry: ConversationEntry, index: TranscriptIndex, reading: FullnessReading, thresholds: RequestThresholds): Decide {
  const { minGainFraction, latchAt } = ctx.settings.latch;
  const turn = turnPlaceOf(index, entry.record?.prefixCheck !== undefined, latchAt);
  const decideWith = ctx.decide ?? decideEpoch;
  return (take) =>
    decideWith({
      reading,
      thresholds,
      epochCount: entry.record?.epochs.length ?? 0,
      minGainFraction,
      turn,
      take,
    });
}

/** The epoch reason's threshold fields (core/latch-threshold.ts), as a spread for a latch's facts. */
export function firedOf(reading: FullnessReading, settings: ThresholdSettings): { readonly fired?: ThresholdFired } {
  const fired = firedThreshold(reading, settings);
  return fired === undefined ? {} : { fired };
}
