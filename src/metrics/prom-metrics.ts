/**
 * The counting calls (metrics.ts) as Prometheus metrics, in a registry of their own: never
 * prom-client's global one, so two proxies in one process (the tests, the demo) never share a count.
 * docs/metrics.md lists every metric; a test keeps it in step with this file.
 *
 * The hot path is one prom-client increment per call: label children are made once (the closed
 * lists at start, a route or status on its first sight) and looked up without building a string.
 */
import { Counter, Histogram, Registry } from 'prom-client';
import type { ModelRoute } from '../core/model-route.js';
import { PASSTHROUGH_REASONS, type PassthroughReason } from '../core/passthrough-reasons.js';
import { THINKING_DROP_REASONS, type ThinkingDropReason } from '../core/thinking/thinking-dropped.js';
import {
  EPOCH_MODES,
  EPOCH_TRIGGERS,
  OVERFLOW_RETRY_OUTCOMES,
  type EpochMode,
  type EpochTrigger,
  type OverflowRetryOutcome,
  type ServedMetrics,
} from './metrics.js';

/** The `route` label of a request that is not a model call. */
export const OTHER_ROUTE = 'other';

/** The engine's time per model call: a few ms without a latch, up to seconds when a latch fsyncs. */
export const REWRITE_SECONDS_BUCKETS = [0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
/** Time to response headers: a model call's first token can take a minute on a long prompt. */
export const UPSTREAM_HEADERS_SECONDS_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300];
/** Blocks one epoch adds. */
export const EPOCH_BLOCKS_BUCKETS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];
/** Text bytes one epoch elides: 4 KiB to 16 MiB, by fours. */
export const EPOCH_BYTES_BUCKETS = [4096, 16_384, 65_536, 262_144, 1_048_576, 4_194_304, 16_777_216];

type Child = { inc(value?: number): void };
type Observer = { observe(value: number): void };

/** The metrics of one proxy, served at `/_ctxshed/metrics`. */
export class PromMetrics implements ServedMetrics {
  readonly registry = new Registry();
  readonly #requests: Counter<'route' | 'status'>;
  readonly #requestChildren = new Map<ModelRoute | undefined, Map<number, Child>>();
  readonly #rewritten: Counter;
  readonly #passthrough: Counter<'reason'>;
  readonly #passthroughChildren = new Map<string, Child>();
  readonly #epochs: Counter<'mode' | 'trigger'>;
  readonly #epochBlocks: Histogram<'mode'>;
  readonly #epochBytes: Histogram<'mode'>;
  readonly #refaults: Counter;
  readonly #thinkingRemoved: Counter;
  readonly #thinkingDropped: Counter<'reason'>;
  readonly #overflow: Counter<'outcome'>;
  readonly #rewriteSeconds: Histogram;
  readonly #headersSeconds: Histogram<'route'>;
  readonly #headersChildren = new Map<ModelRoute | undefined, Observer>();
  readonly #cacheRead: Counter;
  readonly #cacheWrite: Counter;
  readonly #input: Counter;

  constructor() {
    const registers = [this.registry];
    this.#requests = new Counter({
      name: 'ctxshed_requests_total',
      help: 'Requests the proxy answered on the API paths (forwarded, or refused as too large), by route and the status the client got (0: none). /_ctxshed/ requests are not counted.',
      labelNames: ['route', 'status'],
      registers,
    });
    this.#rewritten = new Counter({
      name: 'ctxshed_requests_rewritten_total',
      help: 'Requests sent upstream with stubs in them.',
      registers,
    });
    this.#passthrough = new Counter({
      name: 'ctxshed_requests_passed_through_total',
      help: 'Requests sent upstream unchanged, by pass-through reason (docs/reasons.md).',
      labelNames: ['reason'],
      registers,
    });
    this.#epochs = new Counter({
      name: 'ctxshed_epochs_latched_total',
      help: 'Epochs this proxy latched, by mode and trigger; each counted once, when it latches.',
      labelNames: ['mode', 'trigger'],
      registers,
    });
    this.#epochBlocks = new Histogram({
      name: 'ctxshed_epoch_elided_blocks',
      help: 'Blocks each epoch added, observed once per epoch when it latches (never per request).',
      labelNames: ['mode'],
      buckets: EPOCH_BLOCKS_BUCKETS,
      registers,
    });
    this.#epochBytes = new Histogram({
      name: 'ctxshed_epoch_elided_bytes',
      help: 'Text bytes each epoch elided (UTF-8), observed once per epoch when it latches (never per request).',
      labelNames: ['mode'],
      buckets: EPOCH_BYTES_BUCKETS,
      registers,
    });
    this.#refaults = new Counter({
      name: 'ctxshed_refaults_total',
      help: "Elided blocks a later tool call read back (the policy's misses).",
      registers,
    });
    this.#thinkingRemoved = new Counter({
      name: 'ctxshed_thinking_removed_total',
      help: 'Frozen thinking blocks requests went without, on models that check the prefix of thinking blocks.',
      registers,
    });
    this.#thinkingDropped = new Counter({
      name: 'ctxshed_thinking_dropped_total',
      help: "Thinking blocks the API dropped from requests instead of refusing them, by reason, as its responses' input_transformations listed them.",
      labelNames: ['reason'],
      registers,
    });
    for (const reason of THINKING_DROP_REASONS) this.#thinkingDropped.inc({ reason }, 0);
    this.#overflow = new Counter({
      name: 'ctxshed_overflow_retries_total',
      help: 'Upstream "prompt is too long" answers handled, by how they ended.',
      labelNames: ['outcome'],
      registers,
    });
    this.#rewriteSeconds = new Histogram({
      name: 'ctxshed_rewrite_seconds',
      help: "The epoch engine's own time per model call (EpochEngine.prepare: conversation, latch, file check, rewrite).",
      buckets: REWRITE_SECONDS_BUCKETS,
      registers,
    });
    this.#headersSeconds = new Histogram({
      name: 'ctxshed_upstream_headers_seconds',
      help: 'From sending a request upstream to its response headers, by route.',
      labelNames: ['route'],
      buckets: UPSTREAM_HEADERS_SECONDS_BUCKETS,
      registers,
    });
    this.#cacheRead = new Counter({
      name: 'ctxshed_provider_cache_read_tokens_total',
      help: "The provider's reported cache_read_input_tokens, summed over responses. Its figure, not ctxshed's.",
      registers,
    });
    this.#cacheWrite = new Counter({
      name: 'ctxshed_provider_cache_write_tokens_total',
      help: "The provider's reported cache_creation_input_tokens, summed over responses. Its figure, not ctxshed's.",
      registers,
    });
    this.#input = new Counter({
      name: 'ctxshed_provider_input_tokens_total',
      help: "The provider's reported input_tokens (the uncached part), summed over responses. Its figure, not ctxshed's.",
      registers,
    });
    // Every value of a closed list exists from the start, at zero, so a scrape shows what can move.
    for (const reason of Object.keys(PASSTHROUGH_REASONS)) {
      const child = this.#passthrough.labels(reason);
      child.inc(0);
      this.#passthroughChildren.set(reason, child);
    }
    for (const mode of EPOCH_MODES) {
      for (const trigger of EPOCH_TRIGGERS) this.#epochs.inc({ mode, trigger }, 0);
      this.#epochBlocks.zero({ mode });
      this.#epochBytes.zero({ mode });
    }
    for (const outcome of OVERFLOW_RETRY_OUTCOMES) this.#overflow.inc({ outcome }, 0);
  }

  /** Prometheus text format 0.0.4. */
  get contentType(): string {
    return this.registry.contentType;
  }

  /** The text of every metric, for a scrape. */
  render(): Promise<string> {
    return this.registry.metrics();
  }

  requestDone(route: ModelRoute | undefined, status: number): void {
    let byStatus = this.#requestChildren.get(route);
    if (byStatus === undefined) {
      byStatus = new Map();
      this.#requestChildren.set(route, byStatus);
    }
    let child = byStatus.get(status);
    if (child === undefined) {
      child = this.#requests.labels(route ?? OTHER_ROUTE, String(status));
      byStatus.set(status, child);
    }
    child.inc();
  }

  rewritten(): void {
    this.#rewritten.inc();
  }

  passthrough(reason: PassthroughReason): void {
    let child = this.#passthroughChildren.get(reason);
    if (child === undefined) {
      // A reason added to the closed list after this proxy started cannot happen; a typed caller
      // cannot pass one either. Still counted rather than lost.
      child = this.#passthrough.labels(reason);
      this.#passthroughChildren.set(reason, child);
    }
    child.inc();
  }

  epochLatched(mode: EpochMode, trigger: EpochTrigger, blocks: number, bytes: number): void {
    this.#epochs.inc({ mode, trigger });
    if (isCount(blocks)) this.#epochBlocks.observe({ mode }, blocks);
    if (isCount(bytes)) this.#epochBytes.observe({ mode }, bytes);
  }

  thinkingRemoved(n: number): void {
    if (isCount(n) && n > 0) this.#thinkingRemoved.inc(n);
  }

  thinkingDropped(reason: ThinkingDropReason, n: number): void {
    if (isCount(n) && n > 0) this.#thinkingDropped.inc({ reason }, n);
  }

  refaults(n: number): void {
    if (isCount(n) && n > 0) this.#refaults.inc(n);
  }

  overflowRetry(outcome: OverflowRetryOutcome): void {
    this.#overflow.inc({ outcome });
  }

  rewriteSeconds(s: number): void {
    if (isCount(s)) this.#rewriteSeconds.observe(s);
  }

  upstreamHeadersSeconds(route: ModelRoute | undefined, s: number): void {
    if (!isCount(s)) return;
    let child = this.#headersChildren.get(route);
    if (child === undefined) {
      child = this.#headersSeconds.labels(route ?? OTHER_ROUTE);
      this.#headersChildren.set(route, child);
    }
    child.observe(s);
  }

  providerUsage(cacheRead: number, cacheWrite: number, input: number): void {
    // The upstream's numbers: a negative or non-finite one (a broken upstream) would make
    // prom-client throw, and counting must never break a request.
    if (isCount(cacheRead) && cacheRead > 0) this.#cacheRead.inc(cacheRead);
    if (isCount(cacheWrite) && cacheWrite > 0) this.#cacheWrite.inc(cacheWrite);
    if (isCount(input) && input > 0) this.#input.inc(input);
  }
}

/** A finite number at or above zero: what a count, a size or a duration can be. */
function isCount(n: number): boolean {
  return n >= 0 && n !== Infinity;
}
