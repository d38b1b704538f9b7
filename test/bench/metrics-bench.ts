/**
 * What counting costs (docs/metrics.md): the counting calls of one request on prom-client against
 * calls that count nothing, and the real proxy with its metrics against the same proxy counting
 * nothing, interleaved in one run. Goal: no cost a request could notice.
 */
import http from 'node:http';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { NO_METRICS, type Metrics, type ServedMetrics } from '../../src/metrics/metrics.js';
import { PromMetrics } from '../../src/metrics/prom-metrics.js';
import { countRequest } from '../../src/proxy/count-request.js';
import type { ForwardResult } from '../../src/proxy/forward.js';
import { startProxy } from '../../src/proxy/start-proxy.js';
import { DEFAULT_MAX_REQUEST_BYTES } from '../../src/proxy/transport-settings.js';
import { engineSettingsOf, type Prepared } from '../../src/rescue/index.js';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { buildClaudeCodeBody } from './claude-code-body.js';
import { formatTable, measureInterleaved, ms, quantile } from './measure.js';
import { post, startUpstream } from './proxy-bench.js';

/** Requests counted per timed call, so one call lasts long enough for the clock. */
const CALLS_PER_ROUND = 10_000;

/** Runs the metrics benchmark and prints its tables. */
export async function runMetricsBench(): Promise<void> {
  countingCalls();
  await proxyWithAndWithout();
}

/** The calls the handler makes for one request, on prom-client and on nothing. */
function countingCalls(): void {
  const body = new Uint8Array(2);
  const kinds: Array<[Prepared, ForwardResult]> = [
    [
      { outcome: 'rewritten', body, route: 'messages', window: 200_000, agentId: undefined, rescued: 4, bytesElided: 16_000, skipped: [], epochs: 1 },
      {
        status: 200,
        bytesOut: 900,
        usage: { inputTokens: 12, cacheCreationInputTokens: 3000, cacheReadInputTokens: 90_000, outputTokens: 40 },
        timings: { headersMs: 800, totalMs: 4000 },
      },
    ],
    [
      { outcome: 'passthrough', body, route: 'messages', window: 200_000, agentId: undefined, epochs: 0, reason: 'no_epoch', detail: '' },
      {
        status: 200,
        bytesOut: 900,
        usage: { inputTokens: 10, cacheCreationInputTokens: 2000, cacheReadInputTokens: 50_000, outputTokens: 30 },
        timings: { headersMs: 700, totalMs: 3000 },
      },
    ],
    [
      { outcome: 'passthrough', body, route: 'count_tokens', window: 200_000, agentId: undefined, epochs: 0, reason: 'no_epoch', detail: '' },
      { status: 200, bytesOut: 30, timings: { headersMs: 90, totalMs: 95 } },
    ],
  ];
  const run = (metrics: Metrics) => (): number => {
    for (let i = 0; i < CALLS_PER_ROUND; i++) {
      const [prepared, result] = kinds[i % kinds.length]!;
      countRequest(metrics, prepared, result, 0.0012);
    }
    return CALLS_PER_ROUND;
  };
  const prom = new PromMetrics();
  const stats = measureInterleaved(
    [
      { name: 'prom-client', run: run(prom) },
      { name: 'nothing', run: run(NO_METRICS) },
    ],
    { warmupRounds: 20, minRounds: 60, maxRounds: 400, budgetMs: 5000 },
  );
  const usPerRequest = (median: number): string => ((median * 1000) / CALLS_PER_ROUND).toFixed(3);
  console.log('metrics: the counting calls of one request (countRequest), microseconds per request, interleaved');
  console.log(
    formatTable(
      ['counted into', 'median us', 'p90 us', 'rounds'],
      stats.map((s) => [s.name, usPerRequest(s.median), usPerRequest(s.p90), String(s.rounds)]),
    ),
  );
  const [withProm, withNothing] = stats;
  console.log(`prom-client adds ${usPerRequest(withProm!.median - withNothing!.median)} us per request`);
}

/** The real proxy twice over one state directory: with its metrics, and counting nothing. */
async function proxyWithAndWithout(): Promise<void> {
  const upstream = await startUpstream();
  const stateDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ctxshed-bench-metrics-'));
  const state = await openStateDir(stateDir);
  const settings = {
    transport: {
      upstream: new URL(`http://127.0.0.1:${upstream.port}`),
      maxRequestBytes: DEFAULT_MAX_REQUEST_BYTES,
      timeouts: { headersMs: 60_000, idleMs: 60_000 },
    },
    engine: engineSettingsOf({ threshold: 0.7, keepRecent: 6, minBytes: 1024 }),
  };
  const silent: ServedMetrics = { ...NO_METRICS, contentType: 'text/plain', render: async () => '' };
  const counted = await startProxy(settings, state, 0);
  const uncounted = await startProxy(settings, state, 0, { metrics: silent });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const rows: string[][] = [];
  try {
    for (const size of [300_000, 1_000_000]) {
      const body = buildClaudeCodeBody({ targetBytes: size, seed: 30 + size / 100_000 }).bytes;
      const targets = [
        { name: 'direct', port: upstream.port },
        { name: 'metrics', port: counted.port },
        { name: 'no metrics', port: uncounted.port },
      ];
      const samples = targets.map(() => [] as number[]);
      for (let round = -10; round < 150; round++) {
        for (let k = 0; k < targets.length; k++) {
          const t = (k + Math.max(round, 0)) % targets.length;
          const timing = await post(agent, targets[t]!.port, body);
          if (round >= 0) samples[t]!.push(timing.lastByte);
        }
      }
      const median = (t: number): number =>
        quantile(
          samples[t]!.sort((a, b) => a - b),
          0.5,
        );
      const added = (t: number): number => median(t) - median(0);
      rows.push([`${(size / 1e6).toFixed(1)} MB`, ms(median(0)), ms(added(1)), ms(added(2)), ms(added(1) - added(2)), (added(1) / added(2)).toFixed(2)]);
    }
  } finally {
    agent.destroy();
    await counted.close();
    await uncounted.close();
    upstream.server.close();
    await fs.rm(stateDir, { recursive: true, force: true });
  }
  console.log('');
  console.log('metrics: latency the proxy adds over a direct call (json, no epoch, median ms), with its metrics and counting nothing, interleaved');
  console.log(formatTable(['body', 'direct', '+ctxshed', '+ctxshed, no metrics', 'difference', 'ratio'], rows));
}
