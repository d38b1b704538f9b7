/**
 * Whether this request latches a shed epoch, and latching it when it does (docs/shed.md). The
 * same reading, thresholds and decision as rescue (core/decide-epoch.ts): a stale reading and a
 * gain under the floor (core/latch-threshold.ts) are refused alike; then the burst gate, always.
 */
import {
  DEFAULT_LATCH_AT,
  DEFAULT_SHED_POLICY,
  decideEpoch,
  turnPlaceOf,
  firstPromptExcerpt,
  planShedRecord,
  weighSpan,
  type TranscriptIndex,
} from '../core/index.js';
import { errorText } from '../errors.js';
import { sha256Hex } from '../state/sha256-hex.js';
import type { ConversationEntry } from './conversation-table.js';
import { latchWith, type LatchContext } from './latch-conversation.js';
import { firedOf, holdOf, type LatchOutcome } from './maybe-latch.js';

/**
 * Plans a span, weighs it and latches it. Resolves to the epoch this request latched, or to why
 * it held; a state failure is reported through `onStateFailure`, never thrown.
 */
export async function maybeShed(
  ctx: LatchContext,
  entry: ConversationEntry,
  body: Uint8Array,
  index: TranscriptIndex,
  agentId: string | undefined,
  onStateFailure: (error: unknown) => void,
): Promise<LatchOutcome> {
  const { reading } = entry;
  if (reading === undefined) return {};
  const { threshold, rescueTokens, horizon, minGainFraction } = ctx.settings;
  const policy = ctx.settings.shedPolicy ?? DEFAULT_SHED_POLICY;
  const decision = decideEpoch({
    reading,
    threshold,
    ...(rescueTokens === undefined ? {} : { rescueTokens }),
    epochCount: entry.record?.epochs.length ?? 0,
    ...(minGainFraction === undefined ? {} : { minGainFraction }),
    turn: turnPlaceOf(index, entry.record?.prefixCheck !== undefined, ctx.settings.latchAt ?? DEFAULT_LATCH_AT),
    take: () =>
      weighSpan({
        body,
        index,
        spans: entry.spans,
        reading,
        sha256: sha256Hex,
        policy,
        spansDir: ctx.table.state.spansDir,
        ...(horizon === undefined ? {} : { horizon }),
      }),
  });
  if (decision.kind !== 'latch' || decision.span === undefined || decision.gate === undefined) return holdOf(decision);
  const { span, gate, recentTokens, fit } = decision;
  const request = {
    span,
    reading,
    gate,
    firstPrompt: firstPromptExcerpt(body, index),
    model: index.model ?? '',
    agentId,
    ...firedOf(reading, ctx.settings),
    ...(fit === undefined ? {} : { fit }),
  };
  try {
    const latched = await latchWith(
      ctx,
      entry,
      (current) => planShedRecord({ key: entry.key, current, request, threshold, recentTokens: recentTokens ?? 0, now: ctx.now() }),
      { body, index, ...(decision.midTurn === true ? { midTurn: true } : {}) },
    );
    return latched === undefined ? { hold: { reason: 'concurrent_latch', detail: 'another latch got there first' } } : { latched };
  } catch (error) {
    onStateFailure(error);
    return { hold: { reason: 'state_unavailable', detail: errorText(error) } };
  }
}
