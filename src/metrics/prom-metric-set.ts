/**
 * The metrics of one proxy (prom-metrics.ts), defined in groups and registered in the proxy's own
 * registry. A scrape lists metrics in the order they were registered, so the groups are made in
 * the order below, which is the order docs/metrics.md gives them.
 */
import { Counter, Histogram, type Registry } from 'prom-client';
import { HOLD_REASONS } from '../core/decide/hold-reasons.js';
import { THINKING_DROP_REASONS } from '../core/thinking/thinking-dropped.js';

/** The engine's time per model call: a few ms without a latch, up to seconds when a latch fsyncs. */
export const REWRITE_SECONDS_BUCKETS = [0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
/** Time to response headers: a model call's first token can take a minute on a long prompt. */
export const UPSTREAM_HEADERS_SECONDS_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300];
/** Blocks one epoch adds. */
export const EPOCH_BLOCKS_BUCKETS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];
/** Text bytes one epoch elides: 4 KiB to 16 MiB, by fours. */
export const EPOCH_BYTES_BUCKETS = [4096, 16_384, 65_536, 262_144, 1_048_576, 4_194_304, 16_777_216];

/** Every metric of one proxy, registered in `registry`. */
export function createMetricSet(registry: Registry) {
  const registers = [registry];
  return {
    ...requestMetrics(registers),
    ...epochMetrics(registers),
    ...aftermathMetrics(registers),
    ...timingMetrics(registers),
    ...providerMetrics(registers),
    stateWriteFailures: new Counter({
      name: 'ctxshed_state_write_failures_total',
      help: 'Writes to the state directory that failed (a full disk, a lost permission); the requests went out without them.',
      registers,
    }),
  };
}

/** Requests answered, rewritten and passed through. */
function requestMetrics(registers: Registry[]) {
  return {
    requests: new Counter({
      name: 'ctxshed_requests_total',
      help: 'Requests the proxy answered on the API paths (forwarded, or refused as too large), by route and the status the client got (0: none). /_ctxshed/ requests are not counted.',
      labelNames: ['route', 'status'] as const,
      registers,
    }),
    rewritten: new Counter({
      name: 'ctxshed_requests_rewritten_total',
      help: 'Requests sent upstream with stubs in them.',
      registers,
    }),
    passthrough: new Counter({
      name: 'ctxshed_requests_passed_through_total',
      help: 'Requests sent upstream unchanged, by pass-through reason (docs/reasons.md).',
      labelNames: ['reason'] as const,
      registers,
    }),
  };
}

/** Epochs latched, the blocks and bytes each one elided, and the requests that latched none. */
function epochMetrics(registers: Registry[]) {
  const metrics = {
    epochs: new Counter({
      name: 'ctxshed_epochs_latched_total',
      help: 'Epochs this proxy latched, by mode and trigger; each counted once, when it latches.',
      labelNames: ['mode', 'trigger'] as const,
      registers,
    }),
    epochBlocks: new Histogram({
      name: 'ctxshed_epoch_elided_blocks',
      help: 'Blocks each epoch added, observed once per epoch when it latches (never per request).',
      labelNames: ['mode'] as const,
      buckets: EPOCH_BLOCKS_BUCKETS,
      registers,
    }),
    epochBytes: new Histogram({
      name: 'ctxshed_epoch_elided_bytes',
      help: 'Text bytes each epoch elided (UTF-8), observed once per epoch when it latches (never per request).',
      labelNames: ['mode'] as const,
      buckets: EPOCH_BYTES_BUCKETS,
      registers,
    }),
  };
  const holds = new Counter({
    name: 'ctxshed_holds_total',
    help: 'Requests over the threshold that latched no epoch, by hold reason (docs/reasons.md); working_set_thrash counts the thrashes the working set held.',
    labelNames: ['reason'] as const,
    registers,
  });
  for (const reason of Object.keys(HOLD_REASONS)) holds.inc({ reason }, 0);
  return { ...metrics, holds };
}

/** What followed the rewrites: refaults, thinking removed or dropped, and overflow retries. */
function aftermathMetrics(registers: Registry[]) {
  const refaults = new Counter({
    name: 'ctxshed_refaults_total',
    help: "Elided blocks a later tool call read back (the policy's misses).",
    registers,
  });
  const thinkingRemoved = new Counter({
    name: 'ctxshed_thinking_removed_total',
    help: 'Frozen thinking blocks requests went without, on models that check the prefix of thinking blocks.',
    registers,
  });
  const thinkingDropped = new Counter({
    name: 'ctxshed_thinking_dropped_total',
    help: "Thinking blocks the API dropped from requests instead of refusing them, by reason, as its responses' input_transformations listed them.",
    labelNames: ['reason'] as const,
    registers,
  });
  for (const reason of THINKING_DROP_REASONS) thinkingDropped.inc({ reason }, 0);
  const overflow = new Counter({
    name: 'ctxshed_overflow_retries_total',
    help: 'Upstream "prompt is too long" answers handled, by how they ended.',
    labelNames: ['outcome'] as const,
    registers,
  });
  return { refaults, thinkingRemoved, thinkingDropped, overflow };
}

/** The engine's time per call and the upstream's time to headers. */
function timingMetrics(registers: Registry[]) {
  return {
    rewriteSeconds: new Histogram({
      name: 'ctxshed_rewrite_seconds',
      help: "The epoch engine's own time per model call (EpochEngine.prepare: conversation, latch, file check, rewrite).",
      buckets: REWRITE_SECONDS_BUCKETS,
      registers,
    }),
    headersSeconds: new Histogram({
      name: 'ctxshed_upstream_headers_seconds',
      help: 'From sending a request upstream to its response headers, by route.',
      labelNames: ['route'] as const,
      buckets: UPSTREAM_HEADERS_SECONDS_BUCKETS,
      registers,
    }),
  };
}

/** The provider's own token figures, summed. */
function providerMetrics(registers: Registry[]) {
  return {
    cacheRead: new Counter({
      name: 'ctxshed_provider_cache_read_tokens_total',
      help: "The provider's reported cache_read_input_tokens, summed over responses. Its figure, not ctxshed's.",
      registers,
    }),
    cacheWrite: new Counter({
      name: 'ctxshed_provider_cache_write_tokens_total',
      help: "The provider's reported cache_creation_input_tokens, summed over responses. Its figure, not ctxshed's.",
      registers,
    }),
    input: new Counter({
      name: 'ctxshed_provider_input_tokens_total',
      help: "The provider's reported input_tokens (the uncached part), summed over responses. Its figure, not ctxshed's.",
      registers,
    }),
  };
}
