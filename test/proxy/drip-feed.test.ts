/**
 * Nothing stalls an agent's request (issue 41 item 2): five uploads declare about 32 MB, send most
 * of it at once, then a byte every 300 ms; before the fix they held the whole 128 MiB body budget
 * and an agent's 500 KB request got a 429 for as long as they lasted. Now each body has a share
 * and a big one may not eat the reserve (body-budget.ts), and a body must keep a pace
 * (body-pace.ts): the agent's request is answered, and each drip-feed is cut at the end of its
 * first slow window. The windows are injected short, so the test runs in seconds; nothing is
 * asserted about time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PromMetrics } from '../../src/metrics/prom-metrics.js';
import { createUpstreamAgents } from '../../src/proxy/agents.js';
import { BodyBudget } from '../../src/proxy/body-budget.js';
import type { EdgeRequest, EdgeResponse } from '../../src/proxy/edge.js';
import { handleProxyRequest, type ProxyDeps } from '../../src/proxy/handle-request.js';
import { StateHealth } from '../../src/proxy/state-health.js';
import { EpochEngine } from '../../src/rescue/index.js';
import { agentBody } from '../support/agent-body.js';
import { startMessagesApi, type MessagesApi } from '../../src/scripted/messages-api.js';
import { isMessagesRequest } from '../../src/scripted/received-request.js';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { tempStateDir, testConfig } from '../support/test-proxy.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const MiB = 1024 * 1024;
const HEADERS = { host: '127.0.0.1:4711', 'content-type': 'application/json', 'x-api-key': 'sk-ant-test-000', 'anthropic-version': '2023-06-01' };
/** Most of 32 MB, at once: five of these are 134,000,000 bytes, just under the 128 MiB budget. */
const FAST_BYTES = 26_800_000;
const CHUNK = Buffer.alloc(1_000_000, 0x20);

async function setUp(
  budget: BodyBudget,
  pace: { bodyMinBytesPerSecond: number },
): Promise<{ deps: ProxyDeps; api: MessagesApi; records: Array<Record<string, unknown>> }> {
  const api = await startMessagesApi();
  cleanups.push(() => api.close());
  const settings = testConfig(api.url, { bodyIdleTimeoutMs: 30_000, bodyRateWindowMs: 400, ...pace });
  const now = (): Date => new Date('2026-01-01T00:00:00Z');
  const engine = new EpochEngine(await openStateDir(await tempStateDir()), settings.engine, { now });
  const agents = createUpstreamAgents();
  cleanups.push(() => {
    engine.close();
    agents.http.destroy();
  });
  const records: Array<Record<string, unknown>> = [];
  const wire = { append: async (record: object): Promise<void> => void records.push(record as Record<string, unknown>) };
  const health = new StateHealth(wire.append, () => now().toISOString());
  return { deps: { transport: settings.transport, engine, wire, health, agents, now, metrics: new PromMetrics(), bodyBudget: budget }, api, records };
}

/** An upload that declares 32 MB, sends FAST_BYTES at once (`sent` then resolves), then a byte every 300 ms until nobody reads. */
function dripFeed(): { request: EdgeRequest; sent: Promise<void> } {
  let sent: () => void = () => undefined;
  const fast = new Promise<void>((resolve) => {
    sent = resolve;
  });
  async function* body(): AsyncIterable<Uint8Array> {
    for (let at = 0; at < FAST_BYTES; at += CHUNK.length) yield CHUNK.subarray(0, Math.min(CHUNK.length, FAST_BYTES - at));
    sent();
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      yield Buffer.from(' ');
    }
  }
  const request: EdgeRequest = {
    method: 'POST',
    url: '/v1/messages',
    headers: { ...HEADERS, 'content-length': '32000000' },
    localPort: 4711,
    remoteAddress: '127.0.0.1',
    body: body(),
  };
  return { request, sent: fast };
}

async function settle(response: EdgeResponse): Promise<number> {
  for await (const _ of response.body) {
    // read to the end
  }
  await response.finished;
  return response.status;
}

describe('five drip-fed uploads and an agent', () => {
  it('should answer the agent while five uploads of about 32 MB drip, and cut each drip-feed, giving every byte back', async () => {
    const budget = new BodyBudget(128 * MiB, 8 * MiB);
    const { deps, api, records } = await setUp(budget, { bodyMinBytesPerSecond: 64 * 1024 });
    const feeds = Array.from({ length: 5 }, dripFeed);
    const slow = feeds.map((feed) => handleProxyRequest(deps, feed.request).then(settle));
    await Promise.all(feeds.map((feed) => feed.sent));
    const body = agentBody();

    const agent = await settle(await handleProxyRequest(deps, { ...dripFeed().request, headers: HEADERS, body }));
    const cut = await Promise.all(slow);

    expect(body.length).toBeGreaterThan(500_000);
    expect(agent).toBe(200);
    expect(api.requests.filter(isMessagesRequest).map((r) => r.body.length)).toEqual([body.length]);
    // Each drip-feed held its bytes (408 at its first slow window) or was refused for the reserve (429).
    for (const status of cut) expect([408, 429]).toContain(status);
    expect(records.filter((r) => r['refused'] === 'body_too_slow').length).toBeGreaterThan(0);
    expect(budget.held).toBe(0);
  });
});
