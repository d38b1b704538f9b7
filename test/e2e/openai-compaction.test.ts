/**
 * Remote compaction through the real proxy on port 0 (docs/openai.md, "Remote compaction"): a
 * scripted Codex-like client latches epochs, compacts through `/responses/compact` or a
 * `compaction_trigger` request, sends the `compaction` item back and goes on. The scripted API
 * refuses a `compaction` item it did not write, so every 200 proves the item came back intact.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { RESPONSES_API } from '../../src/core/dialects/responses.js';
import { findStubs } from '../../src/core/epochs/inflate.js';
import type { TranscriptIndex } from '../../src/core/transcript-index-types.js';
import { layoutPaths } from '../../src/state/layout.js';
import { inflateFromState } from '../../src/state/inflate-from-state.js';
import { verifyState } from '../../src/state/verify-state.js';
import { OpenAiScriptedClient } from '../support/openai-scripted-client.js';
import { compactionItem } from '../support/responses-compaction.js';
import { functionCall, isCompactRequest, isResponsesRequest, responsesUsage, startOpenAiUpstream } from '../support/responses-upstream.js';
import { startTestProxy, tempStateDir, testConfig, waitForWire } from '../support/test-proxy.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const BYTES_PER_TOKEN = 4;

async function setUp(): Promise<{ dir: string; upstream: Awaited<ReturnType<typeof startOpenAiUpstream>>; client: OpenAiScriptedClient }> {
  const dir = await tempStateDir('ctxshed-openai-compaction-');
  let n = 0;
  const upstream = await startOpenAiUpstream((req) => {
    n += 1;
    const input = Math.ceil(req.body.length / BYTES_PER_TOKEN);
    return { kind: 'response', output: [functionCall('exec_command', { cmd: `cat file-${n}.txt` }, `call_${n}`)], usage: responsesUsage(input, 0) };
  });
  const proxy = await startTestProxy(dir, testConfig(upstream.baseUrl.replace(/\/v1$/, '')));
  cleanups.push(
    () => upstream.close(),
    () => proxy.close(),
  );
  return { dir, upstream, client: new OpenAiScriptedClient(proxy.url, 'responses') };
}

function mustIndex(body: Uint8Array): TranscriptIndex {
  const outcome = RESPONSES_API.index(body);
  if (outcome.kind !== 'indexed') throw new Error(`${outcome.reason}: ${outcome.detail}`);
  return outcome.index;
}

async function turns(client: OpenAiScriptedClient, count: number): Promise<void> {
  for (let i = 0; i < count; i++) expect((await client.turnOnce()).status).toBe(200);
}

describe('rescue proxy, a Responses session that compacts remotely', () => {
  it('should forward /responses/compact byte for byte and keep the conversation, with epochs before and after', async () => {
    // Arrange
    const { dir, upstream, client } = await setUp();
    await turns(client, 25);
    const before = client.sent.length;

    // Act
    const compacted = await client.compactRemotely();
    await turns(client, 25);

    // Assert
    expect(compacted.status).toBe(200);
    const compactCalls = upstream.requests.filter(isCompactRequest);
    expect(compactCalls).toHaveLength(1);
    expect(compactCalls[0]!.body.equals(client.sent[before]!)).toBe(true);
    const output = (JSON.parse(compacted.body) as { object: string; output: Array<Record<string, unknown>> }).output;
    expect(output.at(-1)).toEqual(compactionItem(client.sent[before]!));
    const wire = await waitForWire(dir, client.sent.length);
    expect(wire[before]).toMatchObject({ path: '/v1/responses/compact', route: null, reason: 'not_a_model_call', status: 200 });
    const keys = new Set(wire.filter((r) => r['route'] === 'responses').map((r) => r['key']));
    expect(keys.size).toBe(1);
    expect(wire.slice(0, before).some((r) => r['latched'] !== undefined)).toBe(true);
    expect(wire.slice(before + 1).some((r) => r['latched'] !== undefined)).toBe(true);
    await expectLossless(
      dir,
      upstream.requests.filter(isResponsesRequest).map((r) => r.body),
      client.sent.filter((_, i) => i !== before),
    );
  });

  it('should send a compaction_trigger request with its items in order, the compaction item back intact, and keep the conversation', async () => {
    // Arrange
    const { dir, upstream, client } = await setUp();
    await turns(client, 25);
    const at = client.sent.length;

    // Act
    const triggered = await client.triggerCompaction();
    await turns(client, 25);

    // Assert
    expect(triggered.status).toBe(200);
    const done = triggered.body.split('\n').filter((l) => l.includes('"response.completed"'));
    expect(done).toHaveLength(1);
    const received = upstream.requests.filter(isResponsesRequest).map((r) => r.body);
    expect((JSON.parse(done[0]!.slice(6)) as { response: { output: unknown[] } }).response.output).toEqual([compactionItem(received[at]!)]);
    const sentItems = mustIndex(client.sent[at]!).messages;
    const receivedIndex = mustIndex(received[at]!);
    expect(receivedIndex.messages.map((m) => m.role)).toEqual(sentItems.map((m) => m.role));
    const stubbed = new Set(findStubs(received[at]!, receivedIndex).map((s) => receivedIndex.toolResults[s.ordinal]!.messageIndex));
    for (const [i, m] of receivedIndex.messages.entries()) {
      if (stubbed.has(i)) continue;
      const sent = sentItems[i]!;
      expect(received[at]!.subarray(m.start, m.end).equals(client.sent[at]!.subarray(sent.start, sent.end))).toBe(true);
    }
    const compaction = mustIndex(received.at(-1)!).messages.find((m) => m.role === 'compaction');
    expect(compaction).toBeDefined();
    const wire = await waitForWire(dir, client.sent.length);
    expect(new Set(wire.map((r) => r['key'])).size).toBe(1);
    // The trigger request is a compaction request: through the epochs, never latching one.
    expect(wire[at]).toMatchObject({ requestClass: 'compaction' });
    expect(wire[at]!['latched']).toBeUndefined();
    expect(wire.filter((r) => r['requestClass'] === 'compaction')).toHaveLength(1);
    expect(wire.slice(at + 1).some((r) => r['latched'] !== undefined)).toBe(true);
    await expectLossless(dir, received, client.sent);
  });
});

async function expectLossless(dir: string, received: readonly Buffer[], sent: readonly Buffer[]): Promise<void> {
  expect(received).toHaveLength(sent.length);
  for (const [i, body] of received.entries()) expect(Buffer.from((await inflateFromState(layoutPaths(dir), body)).body).equals(sent[i]!)).toBe(true);
  expect((await verifyState(dir)).problems).toEqual([]);
}
