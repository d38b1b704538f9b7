/**
 * One forwarded request's counts for `/_ctxshed/metrics`, taken where its wire record is built,
 * from the same facts, so the metrics and the wire log (and the reports read from it) agree.
 * Epochs are not counted here: the engine counts each once, when it latches (rescue/count-latch.ts).
 */
import type { ThinkingDropReason } from '../core/thinking/thinking-dropped.js';
import type { Metrics, OverflowRetryOutcome } from '../metrics/metrics.js';
import { latchHoldOf, unreachable, type Prepared } from '../rescue/index.js';
import type { ForwardResult } from './forward.js';
import type { RetryFacts } from './overflow-retry.js';

/**
 * Counts `prepared`, sent and answered as `result`; `prepareSeconds` is the engine's own time.
 * After an overflow, `prepared` is what was sent last and `retry` says how the overflow ended.
 */
export function countRequest(metrics: Metrics, prepared: Prepared, result: ForwardResult, prepareSeconds: number, retry?: RetryFacts): void {
  metrics.requestDone(prepared.route, result.status);
  if (retry !== undefined && retry.reason === 'overflow') metrics.overflowRetry(overflowOutcomeOf(retry));
  const hold = latchHoldOf(prepared);
  if (hold !== undefined) metrics.held(hold.reason);
  const refaults = prepared.refaults?.length ?? 0;
  if (refaults > 0) metrics.refaults(refaults);
  const thinkingRemoved = prepared.outcome === 'rewritten' ? (prepared.thinkingRemoved ?? 0) : 0;
  if (thinkingRemoved > 0) metrics.thinkingRemoved(thinkingRemoved);
  for (const [reason, n] of Object.entries(result.thinkingDropped?.byReason ?? {})) metrics.thinkingDropped(reason as ThinkingDropReason, n);
  countOutcome(metrics, prepared);
  // Only a model call goes through the engine's work; the rest pass through at once.
  if (prepared.route !== undefined) metrics.rewriteSeconds(prepareSeconds);
  const { headersMs } = result.timings;
  if (headersMs !== undefined) metrics.upstreamHeadersSeconds(prepared.route, headersMs / 1000);
  const { usage } = result;
  if (usage !== undefined) metrics.providerUsage(usage.cacheReadInputTokens, usage.cacheCreationInputTokens, usage.inputTokens);
}

// A rewrite, or the input bytes with why they went unchanged.
function countOutcome(metrics: Metrics, prepared: Prepared): void {
  switch (prepared.outcome) {
    case 'rewritten':
      metrics.rewritten();
      return;
    case 'passthrough':
    case 'held':
      metrics.passthrough(prepared.reason);
      return;
    default:
      unreachable(prepared);
  }
}

// A retry refused again gave the client the original refusal; one never sent freed nothing.
function overflowOutcomeOf(retry: RetryFacts): OverflowRetryOutcome {
  if (!retry.sent) return 'nothing_to_free';
  return retry.status === 400 ? 'retry_failed' : 'retried';
}
