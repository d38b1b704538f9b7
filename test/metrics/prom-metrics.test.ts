import { register as globalRegistry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { PASSTHROUGH_REASONS } from '../../src/core/passthrough-reasons.js';
import { THINKING_DROP_REASONS } from '../../src/core/thinking/thinking-dropped.js';
import { EPOCH_MODES, EPOCH_TRIGGERS, NO_METRICS, OVERFLOW_RETRY_OUTCOMES, type Metrics } from '../../src/metrics/metrics.js';
import { PromMetrics } from '../../src/metrics/prom-metrics.js';
import { hasSample, parseScrape, sumOf, type Scrape } from '../support/prom-text.js';

async function scrape(metrics: PromMetrics): Promise<Scrape> {
  return parseScrape(await metrics.render());
}

describe('PromMetrics', () => {
  it('should start every closed list at zero: each reason, mode and trigger, overflow outcome, refaults and the provider counts', async () => {
    const metrics = new PromMetrics();

    const s = await scrape(metrics);

    for (const reason of Object.keys(PASSTHROUGH_REASONS)) {
      expect(hasSample(s, 'ctxshed_requests_passed_through_total', { reason })).toBe(true);
    }
    for (const mode of EPOCH_MODES) {
      for (const trigger of EPOCH_TRIGGERS) expect(hasSample(s, 'ctxshed_epochs_latched_total', { mode, trigger })).toBe(true);
      expect(hasSample(s, 'ctxshed_epoch_elided_bytes_count', { mode })).toBe(true);
      expect(hasSample(s, 'ctxshed_epoch_elided_blocks_count', { mode })).toBe(true);
    }
    for (const outcome of OVERFLOW_RETRY_OUTCOMES) expect(hasSample(s, 'ctxshed_overflow_retries_total', { outcome })).toBe(true);
    for (const reason of THINKING_DROP_REASONS) expect(hasSample(s, 'ctxshed_thinking_dropped_total', { reason })).toBe(true);
    for (const name of [
      'ctxshed_refaults_total',
      'ctxshed_requests_rewritten_total',
      'ctxshed_provider_cache_read_tokens_total',
      'ctxshed_provider_cache_write_tokens_total',
      'ctxshed_provider_input_tokens_total',
    ]) {
      expect(hasSample(s, name)).toBe(true);
    }
    expect(s.samples.every((sample) => sample.value === 0)).toBe(true);
  });

  it('should count requests by route and status, a request that is not a model call as route "other"', async () => {
    const metrics = new PromMetrics();

    metrics.requestDone('messages', 200);
    metrics.requestDone('messages', 200);
    metrics.requestDone('messages', 429);
    metrics.requestDone('count_tokens', 200);
    metrics.requestDone(undefined, 0);

    const s = await scrape(metrics);
    expect(sumOf(s, 'ctxshed_requests_total', { route: 'messages', status: '200' })).toBe(2);
    expect(sumOf(s, 'ctxshed_requests_total', { route: 'messages', status: '429' })).toBe(1);
    expect(sumOf(s, 'ctxshed_requests_total', { route: 'count_tokens', status: '200' })).toBe(1);
    expect(sumOf(s, 'ctxshed_requests_total', { route: 'other', status: '0' })).toBe(1);
    expect(sumOf(s, 'ctxshed_requests_total')).toBe(5);
  });

  it('should count rewrites and pass-throughs by reason', async () => {
    const metrics = new PromMetrics();

    metrics.rewritten();
    metrics.passthrough('no_epoch');
    metrics.passthrough('no_epoch');
    metrics.passthrough('encoded_body');

    const s = await scrape(metrics);
    expect(sumOf(s, 'ctxshed_requests_rewritten_total')).toBe(1);
    expect(sumOf(s, 'ctxshed_requests_passed_through_total', { reason: 'no_epoch' })).toBe(2);
    expect(sumOf(s, 'ctxshed_requests_passed_through_total', { reason: 'encoded_body' })).toBe(1);
    expect(sumOf(s, 'ctxshed_requests_passed_through_total')).toBe(3);
  });

  it('should count an epoch once with its blocks and bytes as one observation each', async () => {
    const metrics = new PromMetrics();

    metrics.epochLatched('rescue', 'threshold', 11, 18_864);
    metrics.epochLatched('rescue', 'threshold', 4, 5_000);

    const s = await scrape(metrics);
    expect(sumOf(s, 'ctxshed_epochs_latched_total', { mode: 'rescue', trigger: 'threshold' })).toBe(2);
    expect(sumOf(s, 'ctxshed_epochs_latched_total')).toBe(2);
    expect(sumOf(s, 'ctxshed_epoch_elided_blocks_sum', { mode: 'rescue' })).toBe(15);
    expect(sumOf(s, 'ctxshed_epoch_elided_blocks_count', { mode: 'rescue' })).toBe(2);
    expect(sumOf(s, 'ctxshed_epoch_elided_bytes_sum', { mode: 'rescue' })).toBe(23_864);
    expect(sumOf(s, 'ctxshed_epoch_elided_bytes_bucket', { mode: 'rescue', le: '16384' })).toBe(1);
    expect(s.types.get('ctxshed_epoch_elided_bytes')).toBe('histogram');
  });

  it('should move the hooks that nothing calls yet: refaults and overflow retries', async () => {
    const metrics = new PromMetrics();

    metrics.refaults(3);
    metrics.overflowRetry('retried');
    metrics.epochLatched('shed', 'overflow', 0, 40_000);

    const s = await scrape(metrics);
    expect(sumOf(s, 'ctxshed_refaults_total')).toBe(3);
    expect(sumOf(s, 'ctxshed_overflow_retries_total', { outcome: 'retried' })).toBe(1);
    expect(sumOf(s, 'ctxshed_epochs_latched_total', { mode: 'shed', trigger: 'overflow' })).toBe(1);
  });

  it('should observe the rewrite time and the time to headers by route', async () => {
    const metrics = new PromMetrics();

    metrics.rewriteSeconds(0.0015);
    metrics.upstreamHeadersSeconds('messages', 1.5);
    metrics.upstreamHeadersSeconds(undefined, 0.02);

    const s = await scrape(metrics);
    expect(sumOf(s, 'ctxshed_rewrite_seconds_count')).toBe(1);
    expect(sumOf(s, 'ctxshed_rewrite_seconds_bucket', { le: '0.002' })).toBe(1);
    expect(sumOf(s, 'ctxshed_rewrite_seconds_bucket', { le: '0.001' })).toBe(0);
    expect(sumOf(s, 'ctxshed_upstream_headers_seconds_sum', { route: 'messages' })).toBe(1.5);
    expect(sumOf(s, 'ctxshed_upstream_headers_seconds_count', { route: 'other' })).toBe(1);
  });

  it('should sum the provider usage under its own names, and ignore numbers no usage has, without throwing', async () => {
    const metrics = new PromMetrics();

    metrics.providerUsage(1000, 200, 10);
    metrics.providerUsage(500, 0, 5);
    metrics.providerUsage(-1, Number.NaN, Number.POSITIVE_INFINITY);
    metrics.rewriteSeconds(Number.NaN);
    metrics.upstreamHeadersSeconds('messages', -1);
    metrics.refaults(-2);
    metrics.epochLatched('rescue', 'threshold', Number.NaN, -5);

    const s = await scrape(metrics);
    expect(sumOf(s, 'ctxshed_provider_cache_read_tokens_total')).toBe(1500);
    expect(sumOf(s, 'ctxshed_provider_cache_write_tokens_total')).toBe(200);
    expect(sumOf(s, 'ctxshed_provider_input_tokens_total')).toBe(15);
    expect(sumOf(s, 'ctxshed_rewrite_seconds_count')).toBe(0);
    expect(sumOf(s, 'ctxshed_refaults_total')).toBe(0);
    expect(sumOf(s, 'ctxshed_epochs_latched_total')).toBe(1);
    expect(sumOf(s, 'ctxshed_epoch_elided_bytes_count')).toBe(0);
  });

  it("should keep each instance's counts its own and leave prom-client's global registry alone", async () => {
    const before = (await globalRegistry.getMetricsAsJSON()).length;
    const a = new PromMetrics();
    const b = new PromMetrics();

    a.requestDone('messages', 200);

    expect(sumOf(await scrape(a), 'ctxshed_requests_total')).toBe(1);
    expect(sumOf(await scrape(b), 'ctxshed_requests_total')).toBe(0);
    expect((await globalRegistry.getMetricsAsJSON()).length).toBe(before);
    expect(a.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
  });
});

describe('PromMetrics, thinking dropped', () => {
  it('should count the thinking blocks the API dropped by reason, and ignore a count that is not one', async () => {
    const metrics = new PromMetrics();

    metrics.thinkingDropped('prefix_binding_mismatch', 2);
    metrics.thinkingDropped('prefix_binding_mismatch', 1);
    metrics.thinkingDropped('model_binding_mismatch', 1);
    metrics.thinkingDropped('other', -1);

    const s = await scrape(metrics);
    expect(sumOf(s, 'ctxshed_thinking_dropped_total', { reason: 'prefix_binding_mismatch' })).toBe(3);
    expect(sumOf(s, 'ctxshed_thinking_dropped_total', { reason: 'model_binding_mismatch' })).toBe(1);
    expect(sumOf(s, 'ctxshed_thinking_dropped_total', { reason: 'other' })).toBe(0);
  });
});

describe('PromMetrics, the state and the process', () => {
  it('should count every failed state write, from zero', async () => {
    const metrics = new PromMetrics();
    const before = sumOf(await scrape(metrics), 'ctxshed_state_write_failures_total');

    metrics.stateWriteFailed();
    metrics.stateWriteFailed();

    expect(before).toBe(0);
    expect(sumOf(await scrape(metrics), 'ctxshed_state_write_failures_total')).toBe(2);
  });

  it("should hold the process's default metrics only when asked, in its own registry", async () => {
    const bare = await scrape(new PromMetrics());
    const served = await scrape(new PromMetrics({ processMetrics: true }));

    expect(bare.types.has('process_resident_memory_bytes')).toBe(false);
    expect(served.types.get('process_resident_memory_bytes')).toBe('gauge');
    expect(sumOf(served, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(await globalRegistry.metrics()).not.toContain('process_resident_memory_bytes');
  });
});

describe('NO_METRICS', () => {
  it('should answer every call PromMetrics answers, and count nothing', () => {
    const calls = Object.getOwnPropertyNames(PromMetrics.prototype).filter((name) => name !== 'constructor' && name !== 'contentType' && name !== 'render');
    const none: Metrics = NO_METRICS;

    expect(Object.keys(none).sort()).toEqual(calls.sort());
    for (const name of calls) expect((none as unknown as Record<string, () => unknown>)[name]!()).toBeUndefined();
  });
});
