/**
 * Shed mode on the Responses API through the real proxy on port 0 (docs/openai.md, "Shed mode"): a
 * scripted Codex-like client whose model answers each request with a reasoning item and a call,
 * against the scripted Responses API, which refuses a broken `call_id` pair or a reasoning item
 * sent without the item it wrote after it (test/support/responses-validator.ts). Every 200 is a
 * request the API accepted; every body it received inflates back to the one the client sent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { layoutPaths } from '../../src/state/layout.js';
import { inflateFromState } from '../../src/state/inflate-from-state.js';
import { listConversations } from '../../src/state/read-conversation.js';
import { verifyState } from '../../src/state/verify-state.js';
import { OpenAiScriptedClient } from '../support/openai-scripted-client.js';
import { functionCall, isResponsesRequest, reasoningItem, responsesUsage, startOpenAiUpstream } from '../support/responses-upstream.js';
import { startTestProxy, tempStateDir, testConfig, waitForWire } from '../support/test-proxy.js';
import { spanOf } from '../../src/core/epoch-items.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const BYTES_PER_TOKEN = 4;

async function setUp(): Promise<{ dir: string; upstream: Awaited<ReturnType<typeof startOpenAiUpstream>>; client: OpenAiScriptedClient }> {
  const dir = await tempStateDir('ctxshed-openai-shed-');
  let n = 0;
  let cached = 0;
  const upstream = await startOpenAiUpstream((req) => {
    n += 1;
    const input = Math.ceil(req.body.length / BYTES_PER_TOKEN);
    // The provider's cache holds what the last request sent, as far as this one repeats it.
    const usage = responsesUsage(input, Math.min(cached, input));
    cached = input;
    return { kind: 'response', output: [reasoningItem(`step ${n}`), functionCall('exec_command', { cmd: `cat file-${n}.txt` }, `call_${n}`)], usage };
  });
  const proxy = await startTestProxy(dir, testConfig(upstream.baseUrl.replace(/\/v1$/, ''), { mode: 'shed' }));
  cleanups.push(
    () => upstream.close(),
    () => proxy.close(),
  );
  return { dir, upstream, client: new OpenAiScriptedClient(proxy.url, 'responses') };
}

async function turns(client: OpenAiScriptedClient, count: number): Promise<void> {
  for (let i = 0; i < count; i++) expect((await client.turnOnce()).status).toBe(200);
}

describe('shed proxy, a Responses session', () => {
  it('should latch shed epochs whose every request the API accepts, each inflating back to what the client sent', async () => {
    // Arrange
    const { dir, upstream, client } = await setUp();

    // Act
    await turns(client, 40);

    // Assert: shed epochs, each a span of whole items.
    const wire = await waitForWire(dir, client.sent.length);
    expect(wire.every((r) => r['status'] === 200)).toBe(true);
    const conversations = await listConversations(layoutPaths(dir));
    expect(conversations).toHaveLength(1);
    const epochs = conversations[0]!.epochs;
    expect(epochs.length).toBeGreaterThanOrEqual(2);
    expect(epochs.every((e) => e.kind === 'span' && spanOf(e) !== undefined)).toBe(true);
    const received = upstream.requests.filter(isResponsesRequest).map((r) => r.body);
    expect(received.filter((b) => b.includes('[ctxshed: shed ')).length).toBeGreaterThan(0);
    // A grown input keeps its prefix: a request that latched nothing starts with the last one's items.
    expect(received.at(-1)!.length).toBeLessThan(client.sent.at(-1)!.length);
    let kept = 0;
    for (let i = 1; i < received.length; i++) {
      if (wire[i]!['latched'] !== undefined) continue;
      const items = received[i - 1]!.subarray(0, received[i - 1]!.indexOf('],"store"'));
      expect(received[i]!.subarray(0, items.length).equals(items)).toBe(true);
      kept++;
    }
    expect(kept).toBeGreaterThan(30);
    expect(received).toHaveLength(client.sent.length);
    for (const [i, body] of received.entries()) expect(Buffer.from((await inflateFromState(layoutPaths(dir), body)).body).equals(client.sent[i]!)).toBe(true);
    expect((await verifyState(dir)).problems).toEqual([]);
  });

  it('should shed before and after a remote compaction, never taking or cutting the compaction item', async () => {
    // Arrange
    const { dir, upstream, client } = await setUp();
    await turns(client, 25);
    const at = client.sent.length;

    // Act
    expect((await client.triggerCompaction()).status).toBe(200);
    await turns(client, 30);

    // Assert: every request accepted (the API refuses a compaction item it did not write whole).
    const wire = await waitForWire(dir, client.sent.length);
    expect(wire.every((r) => r['status'] === 200)).toBe(true);
    expect(wire.slice(0, at).some((r) => r['latched'] !== undefined)).toBe(true);
    expect(wire.slice(at + 1).some((r) => r['latched'] !== undefined)).toBe(true);
    const received = upstream.requests.filter(isResponsesRequest).map((r) => r.body);
    const last = JSON.parse(received.at(-1)!.toString('utf8')) as { input: Array<Record<string, unknown>> };
    expect(last.input.filter((i) => i['type'] === 'compaction')).toHaveLength(1);
    expect(received.at(-1)!.includes('[ctxshed: shed ')).toBe(true);
    for (const [i, body] of received.entries()) expect(Buffer.from((await inflateFromState(layoutPaths(dir), body)).body).equals(client.sent[i]!)).toBe(true);
    expect((await verifyState(dir)).problems).toEqual([]);
  });
});
