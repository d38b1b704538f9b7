/**
 * Latching a shed epoch at once when the API refused a shed mode conversation's request as too
 * long (docs/shed.md, "Rescue on overflow"). The span is the one a threshold latch would plan on
 * this body; the decision is the core's (core/shed/decide-shed-overflow.ts), with no wait on the
 * burst gate; the latch is maybe-shed.ts's (span files durable first, then the record), with the
 * trigger `overflow` and the API's count as its reading.
 */
import {
  asksOneHourCache,
  decideShedOverflow,
  DEFAULT_SHED_POLICY,
  freezeSpan,
  planShedRecord,
  planShedToFit,
  recentBudgetTokens,
  shedFitOf,
  shedGateInput,
  spanStubMessage,
} from '../core/index.js';
import { sha256Hex } from '../state/sha256-hex.js';
import type { ConversationEntry } from './conversation-table.js';
import { latchWith, type LatchContext } from './latch-conversation.js';
import { overflowLatchFacts, type OverflowLatch, type RefusedRequest } from './overflow-latch.js';

/** Plans a span, decides and latches. A state failure is reported through `onStateFailure`, never thrown. */
export async function shedOnOverflow(
  ctx: LatchContext,
  entry: ConversationEntry,
  refused: RefusedRequest,
  onStateFailure: (error: unknown) => void,
): Promise<OverflowLatch> {
  const { body, index, overflow, window } = refused;
  const { threshold, horizon } = ctx.settings;
  const policy = ctx.settings.shedPolicy ?? DEFAULT_SHED_POLICY;
  // This request's own tokens per byte: the refusal counted the bytes that were sent.
  const tokensPerByte = refused.sentBytes > 0 ? overflow.tokens / refused.sentBytes : 0;
  // Without a maximum in the message, the window is the best guess of it.
  const limit = overflow.limit ?? window;
  const { spansDir } = ctx.table.state;
  const target = { contextTokens: overflow.tokens, limit, tokensPerByte, floorTokens: policy.recentFloorTokens, spansDir };
  // The span may grow into the recent window down to its floor to bring the retry under the limit.
  const plan = planShedToFit(body, entry.spans, { sha256: sha256Hex, recentTokens: recentBudgetTokens(policy, window), index }, target);
  // No span to shed: every message that could go is shed already, or none may go (docs/reasons.md).
  if (plan.kind === 'none') return { kind: 'declined', why: 'nothing_new', detail: `${plan.plan.reason}: ${plan.plan.detail}` };
  const stub = spanStubMessage(freezeSpan(plan.span), spansDir);
  const gate = shedGateInput(index, plan.span, {
    tokensPerByte,
    stubBytes: stub.length,
    oneHourCache: asksOneHourCache(body),
    ...(horizon === undefined ? {} : { horizon }),
  });
  const decision = decideShedOverflow({ tokens: overflow.tokens, limit, gate });
  if (!decision.latch) return { kind: 'declined', why: decision.why };
  const request = { span: plan.span, gate: decision.gate, fit: shedFitOf(plan, limit), ...overflowLatchFacts(entry, refused) };
  const { recentTokens } = plan;
  try {
    const n = await latchWith(ctx, entry, (current) => planShedRecord({ key: entry.key, current, request, threshold, recentTokens, now: ctx.now() }), {
      body,
      index,
    });
    return { kind: 'latched', n };
  } catch (error) {
    onStateFailure(error);
    return { kind: 'declined', why: 'state_unavailable' };
  }
}
