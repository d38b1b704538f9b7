/** A Metrics that writes down every call, for tests of who counts what. */
import type { Metrics } from '../../src/metrics/metrics.js';

/** One call: its method's name and arguments. */
export type MetricsCall = readonly [keyof Metrics, ...unknown[]];

/** A Metrics whose calls land in `calls`, in order. */
export function recordingMetrics(): Metrics & { readonly calls: MetricsCall[] } {
  const calls: MetricsCall[] = [];
  const record =
    (name: keyof Metrics) =>
    (...args: unknown[]): void => {
      calls.push([name, ...args]);
    };
  return {
    calls,
    requestDone: record('requestDone'),
    rewritten: record('rewritten'),
    passthrough: record('passthrough'),
    epochLatched: record('epochLatched'),
    held: record('held'),
    refaults: record('refaults'),
    thinkingRemoved: record('thinkingRemoved'),
    thinkingDropped: record('thinkingDropped'),
    overflowRetry: record('overflowRetry'),
    rewriteSeconds: record('rewriteSeconds'),
    upstreamHeadersSeconds: record('upstreamHeadersSeconds'),
    providerUsage: record('providerUsage'),
    stateWriteFailed: record('stateWriteFailed'),
  };
}
