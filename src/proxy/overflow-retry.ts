/**
 * Rescue on overflow (docs/rescue.md): the API answered a conversation's request with 400
 * "prompt is too long". forward.ts held that answer back; here the engine latches an epoch at
 * once and the rewritten request goes out once more. The client sees only the retry's response,
 * or, when nothing could be freed or the retry was refused too, the original answer byte for byte.
 */
import { dialectOf, overflowReadingOf, type OverflowReading } from '../core/index.js';
import type { EngineRequest, EpochEngine, OverflowDeclined, Prepared } from '../rescue/index.js';
import { sendHeldResponse, type ForwardArgs, type ForwardResult, type HeldResponse } from './forward.js';
import { HELD_BODY_MAX_BYTES, readHeldOverflow, readHeldPrefixMismatch } from './held-overflow.js';
import type { Reply } from './reply.js';

/** What forward.ts holds back for a possible rescue: the API's 400, whose body is small JSON. */
export const OVERFLOW_HOLD_BACK: NonNullable<ForwardArgs['holdBack']> = { status: 400, maxBytes: HELD_BODY_MAX_BYTES };

/**
 * What to hold back for a request that may be rescued: the 400, and for a Responses request also
 * the head of its stream when its dialect may refuse inside a 200 stream (the Responses API's,
 * docs/openai.md).
 */
export function overflowHoldBack(prepared: Prepared): NonNullable<ForwardArgs['holdBack']> {
  const streamed = prepared.route !== undefined && dialectOf(prepared.route).supports.streamedRefusal;
  return streamed ? { ...OVERFLOW_HOLD_BACK, streamHead: true } : OVERFLOW_HOLD_BACK;
}

/** What every retry record says: whether the rewritten request went out, and how it ended. */
interface RetryOutcomeFacts {
  /** The status of the refused attempt (always 400). */
  readonly firstStatus: number;
  /** Whether the rewritten request went out. */
  readonly sent: boolean;
  /** Why it did not. */
  readonly why?: OverflowDeclined;
  /** The retry's status (400 again: the client got the original refusal). */
  readonly status?: number;
}

/** The wire record's `retry`: what the proxy did with a held-back refusal. */
export type RetryFacts =
  | (RetryOutcomeFacts & {
      readonly reason: 'overflow';
      /** The prompt's tokens as the refusal counted them, and the maximum it named. */
      readonly tokens: number;
      readonly limit?: number;
      /** The refusal named no count (the Responses API's): `tokens` is ctxshed's estimate. */
      readonly estimated?: true;
    })
  | PrefixCheckRetryFacts;

/** A thinking block of a request ctxshed changed failed its prefix check (docs/rescue.md, "Preserved thinking"). */
type PrefixCheckRetryFacts = RetryOutcomeFacts & {
  readonly reason: 'prefix_check';
  /** The refused block's place as the API named it: `messages.N.content.M`. */
  readonly at: string;
};

/** The exchange as the client saw it in the end. */
export interface FinalExchange {
  /** The preparation of what was sent last (the retry's, when there was one). */
  readonly prepared: Prepared;
  /** The last forward's result (its usage, timings and errors). */
  readonly result: ForwardResult;
  /** The status and body bytes the client got. */
  readonly status: number;
  readonly responseBytes: number;
  readonly retry?: RetryFacts;
}

/** Everything the rescue needs from the handler. */
export interface HeldAnswer {
  readonly engine: EpochEngine;
  readonly request: EngineRequest;
  readonly prepared: Prepared;
  readonly first: ForwardResult & { readonly held: HeldResponse };
  readonly reply: Reply;
  /** Forwards one prepared body (with the hold-back given) and returns its result. */
  readonly forward: (prepared: Prepared, holdBack: ForwardArgs['holdBack']) => Promise<ForwardResult>;
}

/** Answers a held-back response: retries an overflow that can be rescued, else relays it as it was. */
export async function answerHeld(a: HeldAnswer): Promise<FinalExchange> {
  const held = a.first.held;
  const original = (retry?: RetryFacts, last: { prepared: Prepared; result: ForwardResult } = { prepared: a.prepared, result: a.first }): FinalExchange => {
    const responseBytes = sendHeldResponse(a.reply, held);
    return { prepared: last.prepared, result: last.result, status: held.status, responseBytes, ...(retry === undefined ? {} : { retry }) };
  };
  const overflow = overflowOf(a);
  if (overflow === undefined) return answerPrefixMismatch(a, original);
  const facts = {
    reason: 'overflow' as const,
    firstStatus: held.status,
    tokens: overflow.tokens,
    ...(overflow.limit === undefined ? {} : { limit: overflow.limit }),
    ...(overflow.estimated === true ? { estimated: true as const } : {}),
  };
  const outcome = await a.engine.prepareAfterOverflow(a.request, a.prepared, overflow);
  if (outcome.kind === 'declined') return original({ ...facts, sent: false, why: outcome.why });
  // Once only. A 400 again is held back too: the client then gets its own request's refusal, not
  // one for bytes it never sent. Any other answer (a 200, an overload) is the client's to see.
  const result = await a.forward(outcome.prepared, overflowHoldBack(outcome.prepared));
  const retried = { prepared: outcome.prepared, result };
  if (result.held !== undefined) return original({ ...facts, sent: true, status: result.held.status }, retried);
  return { ...retried, status: result.status, responseBytes: result.bytesOut, retry: { ...facts, sent: true, status: result.status } };
}

/**
 * The reading of a held refusal as too long, in the request's API's words. A refusal that names no
 * count (the Responses API's) gets an estimate: the conversation's last reading's tokens per byte
 * times the bytes sent, at least the window plus one (core/estimate-overflow.ts).
 */
function overflowOf(a: HeldAnswer): OverflowReading | undefined {
  const { prepared } = a;
  if (prepared.route === undefined) return undefined;
  const refusal = readHeldOverflow(a.first.held, dialectOf(prepared.route));
  if (refusal === undefined) return undefined;
  return overflowReadingOf(refusal, { window: prepared.window, sentBytes: prepared.body.length, last: prepared.conversation?.reading });
}

/**
 * A held 400 that says a thinking block failed its prefix check: when ctxshed changed the request,
 * a correction epoch latches and the request goes out once more; else the client gets the refusal
 * byte for byte (its own bytes were refused).
 */
async function answerPrefixMismatch(
  a: HeldAnswer,
  original: (retry?: RetryFacts, last?: { prepared: Prepared; result: ForwardResult }) => FinalExchange,
): Promise<FinalExchange> {
  const mismatch = readHeldPrefixMismatch(a.first.held);
  if (mismatch === undefined || a.prepared.outcome !== 'rewritten') return original();
  const facts = { reason: 'prefix_check' as const, firstStatus: a.first.held.status, at: `messages.${mismatch.messageIndex}.content.${mismatch.blockIndex}` };
  const outcome = await a.engine.prepareAfterPrefixMismatch(a.request, a.prepared);
  if (outcome.kind === 'declined') return original({ ...facts, sent: false, why: outcome.why });
  const result = await a.forward(outcome.prepared, overflowHoldBack(outcome.prepared));
  const retried = { prepared: outcome.prepared, result };
  if (result.held !== undefined) return original({ ...facts, sent: true, status: result.held.status }, retried);
  return { ...retried, status: result.status, responseBytes: result.bytesOut, retry: { ...facts, sent: true, status: result.status } };
}
