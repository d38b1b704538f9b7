/**
 * What ctxshed counts, as calls: the proxy's handler and the epoch engine each make one call where
 * a thing happens and know nothing of Prometheus (prom-metrics.ts turns the calls into
 * `/_ctxshed/metrics`). docs/metrics.md lists every metric and when it moves. Replay and tests
 * that count nothing use NO_METRICS.
 */
import type { HoldReason } from '../core/decide/hold-reasons.js';
import type { ModelRoute } from '../core/dialects/index.js';
import type { PassthroughReason } from '../core/passthrough-reasons.js';
import type { ThinkingDropReason } from '../core/thinking/thinking-dropped.js';
import type { EpochMode } from '../core/epoch-types.js';

/** The mode word of an epoch's conversation's kind (docs/design.md "Mode", core/epochs/kind-info.ts `modeOfConversation`): the core's closed list, one label each. */
export type { EpochMode };

/**
 * Why an epoch latched: the fullness crossed the threshold, the upstream said the prompt is too
 * long, or it refused a thinking block ctxshed's edit had invalidated (its prefix check).
 */
export type EpochTrigger = 'threshold' | 'overflow' | 'prefix_check';

/** Every mode and trigger, so each count exists (at zero) before the first epoch latches. */
export { EPOCH_MODES } from '../core/epoch-types.js';
export const EPOCH_TRIGGERS: readonly EpochTrigger[] = ['threshold', 'overflow', 'prefix_check'];

/**
 * How one overflow ("prompt is too long") ended (issue 11): the epoch latched and the retry was
 * answered (`retried`); the retry failed too and the client got the original error
 * (`retry_failed`); nothing could be freed, so no retry (`nothing_to_free`).
 */
export const OVERFLOW_RETRY_OUTCOMES = ['retried', 'retry_failed', 'nothing_to_free'] as const;
export type OverflowRetryOutcome = (typeof OVERFLOW_RETRY_OUTCOMES)[number];

/**
 * The counting calls. Each is cheap (an increment, or a histogram observation) and never throws.
 * Seconds are float seconds; tokens and bytes are whole numbers.
 */
export interface Metrics {
  /** A request the proxy answered on the API's behalf (forwarded, or refused as too large). */
  requestDone(route: ModelRoute | undefined, status: number): void;
  /** A request that went upstream with stubs in it. */
  rewritten(): void;
  /** A request that went upstream unchanged, with its closed reason. */
  passthrough(reason: PassthroughReason): void;
  /** An epoch latched: counted once, when it latches, never again per request that carries it. */
  epochLatched(mode: EpochMode, trigger: EpochTrigger, blocks: number, bytes: number): void;
  /** A request over the threshold that latched no epoch, by its closed hold reason (docs/reasons.md). */
  held(reason: HoldReason): void;
  /** Elided blocks read back by a later tool call (the policy's misses). */
  refaults(n: number): void;
  /** Frozen thinking blocks one request went without (docs/rescue.md, "Preserved thinking"). */
  thinkingRemoved(n: number): void;
  /** Thinking blocks the API dropped from one request, for one reason (its response's `input_transformations`). */
  thinkingDropped(reason: ThinkingDropReason, n: number): void;
  /** One overflow handled, by how it ended. */
  overflowRetry(outcome: OverflowRetryOutcome): void;
  /** The engine's own time on one model call (`EpochEngine.prepare`, latch included). */
  rewriteSeconds(s: number): void;
  /** From sending a request upstream to the upstream's response headers. */
  upstreamHeadersSeconds(route: ModelRoute | undefined, s: number): void;
  /** The usage the provider reported for one response: its own figures, never mixed with ctxshed's. */
  providerUsage(cacheRead: number, cacheWrite: number, input: number): void;
  /** A write to the state directory failed (a full disk, a lost permission): the request went out without it. */
  stateWriteFailed(): void;
}

/** Metrics that can also be scraped: what the proxy serves at `/_ctxshed/metrics`. */
export interface ServedMetrics extends Metrics {
  /** The Content-Type of `render()`'s text. */
  readonly contentType: string;
  /** The Prometheus text exposition of every metric. */
  render(): Promise<string>;
}

const ignore = (): void => undefined;

/** Counts nothing: for replay, tests and anything else that runs the engine without a proxy. */
export const NO_METRICS: Metrics = {
  requestDone: ignore,
  rewritten: ignore,
  passthrough: ignore,
  epochLatched: ignore,
  held: ignore,
  refaults: ignore,
  thinkingRemoved: ignore,
  thinkingDropped: ignore,
  overflowRetry: ignore,
  rewriteSeconds: ignore,
  upstreamHeadersSeconds: ignore,
  providerUsage: ignore,
  stateWriteFailed: ignore,
};
