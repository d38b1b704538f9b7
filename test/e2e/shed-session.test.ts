/** The real proxy in shed mode (docs/shed.md) through a scripted session, against the cache-model upstream. */
import { afterEach, describe, expect, it } from 'vitest';
import { findSpanStubs } from '../../src/core/epochs/spans/find-span-stubs.js';
import { indexTranscript } from '../../src/core/messages/transcript-index.js';
import type { RunningProxy } from '../../src/proxy/start-proxy.js';
import { inflateFromState } from '../../src/state/inflate-from-state.js';
import { layoutPaths } from '../../src/state/layout.js';
import { readConversation } from '../../src/state/read-conversation.js';
import { verifyState } from '../../src/state/verify-state.js';
import { commonPrefixLength } from '../../src/scripted/cache-pricing.js';
import { ScriptedClient } from '../../src/scripted/client.js';
import type { MessagesApi } from '../../src/scripted/messages-api.js';
import { startTestApi } from '../support/scripted-api.js';
import { isMessagesRequest } from '../../src/scripted/received-request.js';
import { validateMessagesRequest } from '../support/messages-validator.js';
import { startTestProxy, tempStateDir, testConfig, waitForWire } from '../support/test-proxy.js';
import { spanOf } from '../../src/core/epoch-items.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function setUp(): Promise<{ dir: string; upstream: MessagesApi; proxy: RunningProxy }> {
  const dir = await tempStateDir('ctxshed-shed-e2e-');
  const upstream = await startTestApi();
  const proxy = await startTestProxy(dir, testConfig(upstream.url, { mode: 'shed' }));
  cleanups.push(
    () => upstream.close(),
    () => proxy.close(),
  );
  return { dir, upstream, proxy };
}

describe('shed proxy, a scripted session', () => {
  it('should forward bytes unchanged until a shed epoch latches, then send valid, lossless bodies with one stub per span', async () => {
    const { dir, upstream, proxy } = await setUp();
    const client = new ScriptedClient(proxy.url);

    for (let i = 0; i < 45; i++) expect((await client.turnOnce()).status).toBe(200);

    const wire = (await waitForWire(dir, client.sent.length)).filter((r) => r['route'] === 'messages');
    const received = upstream.requests.filter(isMessagesRequest).map((r) => r.body);
    const firstLatch = wire.findIndex((r) => r['latched'] !== undefined);
    expect(firstLatch).toBeGreaterThan(0);
    for (let i = 0; i < firstLatch; i++) expect(received[i]!.equals(client.sent[i]!)).toBe(true);
    const record = await readConversation(layoutPaths(dir), String(wire[firstLatch]!['key']));
    expect(record!.epochs.every((e) => e.kind === 'span' && spanOf(e) !== undefined && e.gate?.latch === true)).toBe(true);
    const state = layoutPaths(dir);
    for (const [i, body] of received.entries()) {
      expect(validateMessagesRequest(body)).toEqual([]);
      expect(Buffer.from((await inflateFromState(state, body)).body).equals(client.sent[i]!)).toBe(true);
    }
    const last = received.at(-1)!;
    const indexed = indexTranscript(last);
    if (indexed.kind !== 'indexed') throw new Error('last body does not index');
    expect(findSpanStubs(last, indexed.index).map((f) => f.stub.sha256)).toEqual(record!.epochs.map((e) => spanOf(e)!.sha256));
    expect((await verifyState(dir)).problems).toEqual([]);
  });

  it('should keep a byte-identical prefix between the turns of one epoch, the head always', async () => {
    const { dir, upstream, proxy } = await setUp();
    const client = new ScriptedClient(proxy.url);

    for (let i = 0; i < 45; i++) await client.turnOnce();

    const wire = (await waitForWire(dir, client.sent.length)).filter((r) => r['route'] === 'messages');
    const received = upstream.requests.filter(isMessagesRequest).map((r) => r.body);
    // The window is 20,000 tokens: over 45 turns more than one epoch latches.
    expect(wire.filter((r) => r['latched'] !== undefined).length).toBeGreaterThanOrEqual(2);
    const head = (body: Buffer): number => {
      const indexed = indexTranscript(body);
      if (indexed.kind !== 'indexed') throw new Error('does not index');
      return indexed.index.messages[0]!.end;
    };
    for (let i = 1; i < received.length; i++) {
      // The head, byte for byte, from the second request on (the first one's is its last
      // message, whose cache_control marker the client moves on).
      if (i >= 2) expect(commonPrefixLength(received[i - 1]!, received[i]!)).toBeGreaterThanOrEqual(head(received[i - 1]!));
      if (wire[i]!['epochs'] !== wire[i - 1]!['epochs']) continue;
      const before = indexTranscript(received[i - 1]!);
      if (before.kind !== 'indexed') throw new Error('does not index');
      const lastMessage = before.index.messages[before.index.messages.length - 1]!;
      expect(commonPrefixLength(received[i - 1]!, received[i]!)).toBeGreaterThanOrEqual(lastMessage.start);
    }
  });
});
