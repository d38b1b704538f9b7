/**
 * One forwarded request's counts for `/_ctxshed/metrics`, taken where its wire record is built,
 * from the same facts, so the metrics and the wire log (and the reports read from it) agree.
 * Epochs are not counted here: the engine counts each once, when it latches (rescue/count-latch.ts).
 */
import type { Metrics } from '../metrics/metrics.js';
import type { Prepared } from '../rescue/index.js';
import type { ForwardResult } from './forward.js';

/** Counts `prepared`, sent and answered as `result`; `prepareSeconds` is the engine's own time. */
export function countRequest(metrics: Metrics, prepared: Prepared, result: ForwardResult, prepareSeconds: number): void {
  metrics.requestDone(prepared.route, result.status);
  if (prepared.reason === undefined) metrics.rewritten();
  else metrics.passthrough(prepared.reason);
  // Only a model call goes through the engine's work; the rest pass through at once.
  if (prepared.route !== undefined) metrics.rewriteSeconds(prepareSeconds);
  const { headersMs } = result.timings;
  if (headersMs !== undefined) metrics.upstreamHeadersSeconds(prepared.route, headersMs / 1000);
  const { usage } = result;
  if (usage !== undefined) metrics.providerUsage(usage.cacheReadInputTokens, usage.cacheCreationInputTokens, usage.inputTokens);
}
