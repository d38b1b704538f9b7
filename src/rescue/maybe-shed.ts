/**
 * Whether this request latches a shed epoch, and latching it when it does (docs/shed.md). The
 * same reading and threshold as rescue, the same refusal of a stale reading and of a gain under
 * `minGainFraction` of the window; then the burst gate, always.
 */
import {
  asksOneHourCache,
  decideBurst,
  DEFAULT_MIN_GAIN_FRACTION,
  DEFAULT_SHED_POLICY,
  firstPromptExcerpt,
  freezeSpan,
  planShed,
  planShedRecord,
  shedGateInput,
  spanStubMessage,
  type TranscriptIndex,
} from '../core/index.js';
import { sha256Hex } from '../state/sha256-hex.js';
import type { ConversationEntry } from './conversation-table.js';
import { latchWith, type LatchContext } from './latch-conversation.js';
import { fullnessOf, tokensPerByteOf } from './maybe-latch.js';

/**
 * Plans a span, weighs it and latches it. Resolves to the epoch this request latched, or
 * undefined; a state failure is reported through `onStateFailure`, never thrown.
 */
export async function maybeShed(
  ctx: LatchContext,
  entry: ConversationEntry,
  body: Uint8Array,
  index: TranscriptIndex,
  agentId: string | undefined,
  onStateFailure: (error: unknown) => void,
): Promise<number | undefined> {
  const { reading } = entry;
  const epochCount = entry.record?.epochs.length ?? 0;
  // A reading taken before the last epoch applied still shows the old size: latching on it would churn.
  if (reading === undefined || reading.epochsApplied < epochCount) return undefined;
  const { threshold, horizon } = ctx.settings;
  const policy = ctx.settings.shedPolicy ?? DEFAULT_SHED_POLICY;
  const plan = planShed(body, entry.spans, { sha256: sha256Hex, policy, index });
  if (plan.kind === 'none') return undefined;
  const stub = spanStubMessage(freezeSpan(plan.span), ctx.table.state.spansDir);
  const input = shedGateInput(index, plan.span, {
    tokensPerByte: tokensPerByteOf(reading),
    stubBytes: stub.length,
    oneHourCache: asksOneHourCache(body),
    fullness: fullnessOf(reading),
    ...(horizon === undefined ? {} : { horizon }),
  });
  if (input.droppedCachedTokens < (ctx.settings.minGainFraction ?? DEFAULT_MIN_GAIN_FRACTION) * reading.window) return undefined;
  const gate = decideBurst(input);
  if (!gate.latch) return undefined;
  const request = { span: plan.span, reading, gate, firstPrompt: firstPromptExcerpt(body, index), model: index.model ?? '', agentId };
  try {
    return await latchWith(ctx, entry, (current) => planShedRecord({ key: entry.key, current, request, threshold, policy, now: ctx.now() }), { body, index });
  } catch (error) {
    onStateFailure(error);
    return undefined;
  }
}
