/**
 * The counting calls (metrics.ts) as Prometheus metrics, in a registry of their own: never
 * prom-client's global one, so two proxies in one process (the tests, the demo) never share a count.
 * docs/metrics.md lists every metric; a test keeps it in step with this file.
 *
 * The hot path is one prom-client increment per call: label children are made once (the closed
 * lists at start, a route or status on its first sight) and looked up without building a string.
 */
import { collectDefaultMetrics, Registry, type Counter, type Histogram } from 'prom-client';
import type { HoldReason } from '../core/decide/hold-reasons.js';
import type { ModelRoute } from '../core/dialects/index.js';
import { PASSTHROUGH_REASONS, type PassthroughReason } from '../core/passthrough-reasons.js';
import type { ThinkingDropReason } from '../core/thinking/thinking-dropped.js';
import {
  EPOCH_MODES,
  EPOCH_TRIGGERS,
  OVERFLOW_RETRY_OUTCOMES,
  type EpochMode,
  type EpochTrigger,
  type OverflowRetryOutcome,
  type ServedMetrics,
} from './metrics.js';
import { createMetricSet } from './prom-metric-set.js';

export {
  EPOCH_BLOCKS_BUCKETS,
  EPOCH_BYTES_BUCKETS,
  REWRITE_SECONDS_BUCKETS,
  UPSTREAM_HEADERS_SECONDS_BUCKETS,
} from './prom-metric-set.js';

/** The `route` label of a request that is not a model call. */
export const OTHER_ROUTE = 'other';

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
  readonly #holds: Counter<'reason'>;
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
  readonly #stateWriteFailures: Counter;

  /**
   * With `processMetrics`, the registry also holds prom-client's default process metrics (CPU,
   * resident memory, heap, event loop lag, open descriptors, GC), under their standard names: a
   * running proxy has them; the tests' many registries in one process do not need them.
   */
  constructor(options: { readonly processMetrics?: boolean } = {}) {
    const m = createMetricSet(this.registry);
    this.#stateWriteFailures = m.stateWriteFailures;
    this.#requests = m.requests;
    this.#rewritten = m.rewritten;
    this.#passthrough = m.passthrough;
    this.#epochs = m.epochs;
    this.#epochBlocks = m.epochBlocks;
    this.#epochBytes = m.epochBytes;
    this.#holds = m.holds;
    this.#refaults = m.refaults;
    this.#thinkingRemoved = m.thinkingRemoved;
    this.#thinkingDropped = m.thinkingDropped;
    this.#overflow = m.overflow;
    this.#rewriteSeconds = m.rewriteSeconds;
    this.#headersSeconds = m.headersSeconds;
    this.#cacheRead = m.cacheRead;
    this.#cacheWrite = m.cacheWrite;
    this.#input = m.input;
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
    if (options.processMetrics === true) collectDefaultMetrics({ register: this.registry });
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

  held(reason: HoldReason): void {
    this.#holds.inc({ reason });
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

  stateWriteFailed(): void {
    this.#stateWriteFailures.inc();
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
