/**
 * `/_ctxshed/metrics` and `ctxshed status --json` agree: a scripted session through the real proxy
 * (port 0) against the scripted upstream, then one scrape and one `status --json` over the same
 * state directory. The proxy counts as it goes; status reads the wire log and the records after.
 */
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { PASSTHROUGH_REASONS } from '../../src/core/passthrough-reasons.js';
import { ScriptedClient } from '../../src/scripted/client.js';
import { startTestApi } from '../support/scripted-api.js';
import { postRaw } from '../../src/scripted/post-raw.js';
import { runCli } from '../cli/cli-run.js';
import { parseScrape, sumOf } from '../support/prom-text.js';
import { startTestProxy, tempStateDir, testConfig, waitForWire } from '../support/test-proxy.js';

const AGENT_ID = 'a1b2c3d4e5f607182';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

interface StatusJson {
  readonly conversations: ReadonlyArray<{ readonly requests: number; readonly epochs: number }>;
  readonly totals: {
    readonly requests: number;
    readonly rewritten: number;
    readonly passthrough: Readonly<Record<string, number>>;
    readonly errors: number;
    readonly epochs: number;
    readonly blocksElided: number;
    readonly bytesElided: number;
    readonly shed: { readonly epochs: number; readonly spans: number; readonly messages: number; readonly perEpoch: ReadonlyArray<{ readonly bytes: number }> };
  };
}

describe('/_ctxshed/metrics and status --json', () => {
  it('should count the same requests, rewrites, pass-throughs by reason, epochs and elided blocks and bytes', async () => {
    const dir = await tempStateDir();
    const upstream = await startTestApi({ conversationOf: (req) => String(req.headers['x-claude-code-agent-id'] ?? 'main') });
    const proxy = await startTestProxy(dir, testConfig(upstream.url));
    cleanups.push(
      () => upstream.close(),
      () => proxy.close(),
    );
    let sent = 0;
    const main = new ScriptedClient(proxy.url);
    const agent = new ScriptedClient(proxy.url, { headers: { 'x-claude-code-agent-id': AGENT_ID }, prompt: 'Explore the tests.' });
    cleanups.push(async () => (main.close(), agent.close()));

    // A session long enough for several epochs, a subagent, count_tokens calls and requests that
    // pass through for reasons other than no_epoch, each of which reaches the wire log.
    for (let i = 0; i < 45; i++, sent++) expect((await main.turnOnce()).status).toBe(200);
    for (let i = 0; i < 3; i++, sent++) await agent.turnOnce();
    for (let i = 0; i < 2; i++, sent++) await main.send('/v1/messages/count_tokens?beta=true');
    await postRaw(proxy.url, '/v1/messages?beta=true', Buffer.from('{"messages": [ not json')), sent++;
    await postRaw(proxy.url, '/v1/messages?beta=true', gzipSync(main.body()), { 'content-encoding': 'gzip' }), sent++;
    await postRaw(proxy.url, '/v1/models', Buffer.alloc(0)), sent++;
    const wire = await waitForWire(dir, sent);
    expect(wire).toHaveLength(sent);

    const scrape = parseScrape(await (await fetch(`${proxy.url}/_ctxshed/metrics`)).text());
    const status = JSON.parse((await runCli(['status', '--state', dir, '--json'])).stdout) as StatusJson;
    const { totals } = status;

    // The session did what the comparison needs, or the agreement below would say little.
    expect(totals.epochs).toBeGreaterThanOrEqual(2);
    expect(totals.rewritten).toBeGreaterThan(0);
    for (const reason of ['no_epoch', 'not_json', 'encoded_body', 'not_a_model_call']) expect(totals.passthrough[reason]).toBeGreaterThan(0);
    expect(totals.errors).toBeGreaterThan(0);

    expect(sumOf(scrape, 'ctxshed_requests_total')).toBe(totals.requests);
    expect(totals.requests).toBe(sent);
    const errors = scrape.samples.filter((s) => s.name === 'ctxshed_requests_total' && Number(s.labels['status']) >= 400);
    expect(errors.reduce((total, s) => total + s.value, 0)).toBe(totals.errors);
    expect(sumOf(scrape, 'ctxshed_requests_rewritten_total')).toBe(totals.rewritten);
    for (const reason of Object.keys(PASSTHROUGH_REASONS)) {
      expect([reason, sumOf(scrape, 'ctxshed_requests_passed_through_total', { reason })]).toEqual([reason, totals.passthrough[reason] ?? 0]);
    }
    expect(sumOf(scrape, 'ctxshed_epochs_latched_total')).toBe(totals.epochs);
    expect(sumOf(scrape, 'ctxshed_epochs_latched_total', { mode: 'rescue', trigger: 'threshold' })).toBe(totals.epochs);
    expect(status.conversations.reduce((total, c) => total + c.epochs, 0)).toBe(totals.epochs);
    expect(sumOf(scrape, 'ctxshed_epoch_elided_blocks_count')).toBe(totals.epochs);
    expect(sumOf(scrape, 'ctxshed_epoch_elided_blocks_sum')).toBe(totals.blocksElided);
    expect(sumOf(scrape, 'ctxshed_epoch_elided_bytes_sum')).toBe(totals.bytesElided);
    expect(sumOf(scrape, 'ctxshed_epoch_elided_bytes_sum', { mode: 'rescue' })).toBe(totals.bytesElided);
    expect(totals.shed).toEqual({ epochs: 0, spans: 0, messages: 0, perEpoch: [] });
    // Every model call went through the engine; the one request that is not a model call did not.
    expect(sumOf(scrape, 'ctxshed_rewrite_seconds_count')).toBe(sent - 1);
    expect(sumOf(scrape, 'ctxshed_refaults_total')).toBe(0);
    expect(sumOf(scrape, 'ctxshed_overflow_retries_total')).toBe(0);
  });

  it("should count shed epochs apart from rescue's: each span's bytes one observation of mode shed, no blocks", async () => {
    const dir = await tempStateDir();
    const upstream = await startTestApi();
    const proxy = await startTestProxy(dir, testConfig(upstream.url, { mode: 'shed' }));
    cleanups.push(
      () => upstream.close(),
      () => proxy.close(),
    );
    const client = new ScriptedClient(proxy.url);
    cleanups.push(async () => client.close());

    for (let i = 0; i < 45; i++) expect((await client.turnOnce()).status).toBe(200);
    await waitForWire(dir, 45);
    const scrape = parseScrape(await (await fetch(`${proxy.url}/_ctxshed/metrics`)).text());
    const { totals } = JSON.parse((await runCli(['status', '--state', dir, '--json'])).stdout) as StatusJson;

    // More than one shed epoch latched, or the agreement below would say little.
    expect(totals.shed.epochs).toBeGreaterThanOrEqual(2);
    expect(totals.epochs).toBe(totals.shed.epochs);
    expect(totals.shed.perEpoch).toHaveLength(totals.shed.epochs);
    expect(sumOf(scrape, 'ctxshed_epochs_latched_total', { mode: 'shed', trigger: 'threshold' })).toBe(totals.shed.epochs);
    expect(sumOf(scrape, 'ctxshed_epochs_latched_total', { mode: 'rescue' })).toBe(0);
    expect(sumOf(scrape, 'ctxshed_epoch_elided_bytes_count', { mode: 'shed' })).toBe(totals.shed.epochs);
    // The histogram adds the observations up; status lists each span's bytes and never does.
    expect(sumOf(scrape, 'ctxshed_epoch_elided_bytes_sum', { mode: 'shed' })).toBe(totals.shed.perEpoch.reduce((sum, e) => sum + e.bytes, 0));
    expect(sumOf(scrape, 'ctxshed_epoch_elided_blocks_sum', { mode: 'shed' })).toBe(0);
    expect(totals.blocksElided).toBe(0);
    expect(totals.bytesElided).toBe(sumOf(scrape, 'ctxshed_epoch_elided_bytes_sum', { mode: 'rescue' }));
    expect(sumOf(scrape, 'ctxshed_requests_rewritten_total')).toBe(totals.rewritten);
    expect(sumOf(scrape, 'ctxshed_requests_total')).toBe(totals.requests);
  });

  it("should sum the provider's reported cache reads, cache writes and input as the wire log has them", async () => {
    const dir = await tempStateDir();
    const upstream = await startTestApi();
    const proxy = await startTestProxy(dir, testConfig(upstream.url));
    cleanups.push(
      () => upstream.close(),
      () => proxy.close(),
    );
    const client = new ScriptedClient(proxy.url);
    cleanups.push(async () => client.close());

    for (let i = 0; i < 25; i++) await client.turnOnce();
    const wire = await waitForWire(dir, 25);
    const scrape = parseScrape(await (await fetch(`${proxy.url}/_ctxshed/metrics`)).text());

    const usage = wire.map((r) => r['usage'] as { input: number; cacheCreation: number; cacheRead: number });
    const total = (pick: (u: { input: number; cacheCreation: number; cacheRead: number }) => number): number => usage.reduce((sum, u) => sum + pick(u), 0);
    expect(total((u) => u.cacheRead)).toBeGreaterThan(0);
    expect(sumOf(scrape, 'ctxshed_provider_cache_read_tokens_total')).toBe(total((u) => u.cacheRead));
    expect(sumOf(scrape, 'ctxshed_provider_cache_write_tokens_total')).toBe(total((u) => u.cacheCreation));
    expect(sumOf(scrape, 'ctxshed_provider_input_tokens_total')).toBe(total((u) => u.input));
    expect(sumOf(scrape, 'ctxshed_upstream_headers_seconds_count', { route: 'messages' })).toBe(25);
  });
});
