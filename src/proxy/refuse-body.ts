/**
 * The answer to a body read-body.ts would not take whole, in the error shape of the route's API,
 * on a connection that then closes (RFC 9110 §15.5.14, §15.5.9): nothing is forwarded and the
 * epoch engine never sees it.
 *
 * - `too_large`: 413, as the API answers a body over its 32 MB; no wire record (a body that big
 *   was never a model call ctxshed could record).
 * - `timed_out`, `deadline`: 408, the body stalled or was not whole in time; `refused: "body_timeout"`.
 * - `too_slow`: 408, the body came at under the minimum rate; `refused: "body_too_slow"`.
 * - `over_budget`: 429 with `retry-after`, the bodies in flight across connections were at the
 *   cap; the SDKs retry a 429 by themselves. `refused: "body_budget"` in the wire record.
 */
import { modelRouteOf } from '../core/dialects/index.js';
import type { RefusalReason } from '../core/refusal-reasons.js';
import { errorShapeOf, sendErrorBody, shapedErrorBody, type ShapedError } from './api-error.js';
import type { EdgeRequest } from './edge.js';
import type { BodyRefusal } from './read-body.js';
import { recordRefusal, type RefusalDeps } from './refuse-client.js';
import type { Reply } from './reply.js';

/** What the refused body's limits were, for the message. */
export interface BodyLimitFacts {
  readonly maxRequestBytes: number;
  readonly idleTimeoutMs: number;
  readonly deadlineMs: number;
  readonly minBytesPerSecond: number;
  readonly rateWindowMs: number;
  readonly maxBytesInFlight: number | undefined;
}

/** Seconds a client is asked to wait before sending a body again after a 429. */
export const BODY_BUDGET_RETRY_AFTER_S = 1;

/** Answers a refused body, counts it and (but for a 413) records it. Never rejects. */
export async function refuseBody(deps: RefusalDeps, request: EdgeRequest, reply: Reply, refusal: BodyRefusal, limits: BodyLimitFacts): Promise<void> {
  const started = performance.now();
  const answer = answerOf(refusal, limits);
  const extra = refusal === 'over_budget' ? { connection: 'close', 'retry-after': String(BODY_BUDGET_RETRY_AFTER_S) } : { connection: 'close' };
  const body = shapedErrorBody(errorShapeOf(request.url), answer.error);
  const sent = sendErrorBody(reply, answer.status, body, extra);
  if (answer.reason === undefined) {
    deps.metrics.requestDone(modelRouteOf(request.method, request.url), answer.status);
    return;
  }
  await recordRefusal(deps, request, { status: answer.status, reason: answer.reason, responseBytes: sent ? body.length : 0, started });
}

interface BodyAnswer {
  readonly status: 408 | 413 | 429;
  readonly reason: RefusalReason | undefined;
  readonly error: ShapedError;
}

function answerOf(refusal: BodyRefusal, limits: BodyLimitFacts): BodyAnswer {
  if (refusal === 'too_large') {
    const message = `the request body is over ${limits.maxRequestBytes} bytes`;
    return {
      status: 413,
      reason: undefined,
      error: { anthropicType: 'request_too_large', openAiType: 'invalid_request_error', code: 'request_too_large', message },
    };
  }
  if (refusal === 'timed_out' || refusal === 'deadline' || refusal === 'too_slow') return paceAnswer(refusal, limits);
  const message = `the request bodies in flight reached ctxshed's cap of ${limits.maxBytesInFlight ?? '?'} bytes; retry shortly. Nothing was forwarded.`;
  return { status: 429, reason: 'body_budget', error: { anthropicType: 'rate_limit_error', openAiType: 'rate_limit_error', code: 'body_budget', message } };
}

/** A 408 for a body that broke its pace (body-pace.ts): stalled, too long in coming, or too slow. */
function paceAnswer(refusal: 'timed_out' | 'deadline' | 'too_slow', limits: BodyLimitFacts): BodyAnswer {
  const why =
    refusal === 'timed_out'
      ? `the request body stalled: no byte for ${limits.idleTimeoutMs} ms`
      : refusal === 'deadline'
        ? `the request body did not arrive whole within ${limits.deadlineMs} ms`
        : `the request body arrived at under ${limits.minBytesPerSecond} bytes a second over ${limits.rateWindowMs} ms`;
  const reason = refusal === 'too_slow' ? 'body_too_slow' : 'body_timeout';
  return {
    status: 408,
    reason,
    error: { anthropicType: 'timeout_error', openAiType: 'invalid_request_error', code: reason, message: `${why}. Nothing was forwarded.` },
  };
}
