import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findStubs } from '../../src/core/epochs/inflate.js';
import { indexTranscript } from '../../src/core/messages/transcript-index.js';
import type { RunningProxy } from '../../src/proxy/start-proxy.js';
import { layoutPaths } from '../../src/state/layout.js';
import { inflateFromState } from '../../src/state/inflate-from-state.js';
import { readConversation } from '../../src/state/read-conversation.js';
import { verifyState } from '../../src/state/verify-state.js';
import { commonPrefixLength } from '../../src/scripted/cache-pricing.js';
import type { MessagesApi } from '../../src/scripted/messages-api.js';
import { startTestApi } from '../support/scripted-api.js';
import { isMessagesRequest } from '../../src/scripted/received-request.js';
import { ScriptedClient } from '../../src/scripted/client.js';
import { startTestProxy, waitForWire, tempStateDir, testConfig } from '../support/test-proxy.js';
import { blocksOf } from '../../src/core/epoch-items.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

function stubFilesMissing(body: Buffer): string[] {
  const indexed = indexTranscript(body);
  if (indexed.kind !== 'indexed') return ['not indexable'];
  return findStubs(body, indexed.index)
    .map((f) => f.stub.sha256)
    .filter((sha) => !fs.existsSync(path.join(stateDirOf.current, 'elided', `${sha}.txt`)));
}
const stateDirOf = { current: '' };

async function setUp(): Promise<{ dir: string; upstream: MessagesApi; proxy: RunningProxy; missing: string[] }> {
  const dir = await tempStateDir();
  stateDirOf.current = dir;
  const missing: string[] = [];
  const upstream = await startTestApi({
    onRequest: (req) => {
      if (isMessagesRequest(req)) missing.push(...stubFilesMissing(req.body));
    },
  });
  const proxy = await startTestProxy(dir, testConfig(upstream.url));
  cleanups.push(
    () => upstream.close(),
    () => proxy.close(),
  );
  return { dir, upstream, proxy, missing };
}

function modelCalls(upstream: MessagesApi): Buffer[] {
  return upstream.requests.filter(isMessagesRequest).map((r) => r.body);
}

describe('rescue proxy, a scripted session', () => {
  it('should forward bytes unchanged before the first epoch and stub exactly the frozen blocks after it', async () => {
    const { dir, upstream, proxy, missing } = await setUp();
    const client = new ScriptedClient(proxy.url);

    for (let i = 0; i < 40; i++) expect((await client.turnOnce()).status).toBe(200);

    const wire = (await waitForWire(dir, client.sent.length)).filter((r) => r['route'] === 'messages');
    const firstLatch = wire.findIndex((r) => r['latched'] !== undefined);
    const firstOver = wire.findIndex((r) => Number(r['fullness']) >= 0.7);
    expect(firstLatch).toBeGreaterThan(0);
    // The client sends each request the moment the last one ended; the reading is already there.
    expect(firstLatch).toBe(firstOver + 1);
    const received = modelCalls(upstream);
    for (let i = 0; i < firstLatch; i++) expect(received[i]!.equals(client.sent[i]!)).toBe(true);
    const record = await readConversation(layoutPaths(dir), String(wire[firstLatch]!['key']));
    const frozen = record!.epochs.flatMap((e) => blocksOf(e).map((b) => b.ordinal)).sort((a, b) => a - b);
    const last = received[received.length - 1]!;
    const indexed = indexTranscript(last);
    if (indexed.kind !== 'indexed') throw new Error('last body does not index');
    expect(findStubs(last, indexed.index).map((f) => f.ordinal)).toEqual(frozen);
    expect(missing).toEqual([]);
  });

  it('should keep every rewritten body lossless: inflate gives back what the client sent', async () => {
    const { dir, upstream, proxy } = await setUp();
    const client = new ScriptedClient(proxy.url);

    for (let i = 0; i < 30; i++) await client.turnOnce();

    const state = layoutPaths(dir);
    const received = modelCalls(upstream);
    for (const [i, body] of received.entries()) {
      const inflated = await inflateFromState(state, body);
      expect(Buffer.from(inflated.body).equals(client.sent[i]!)).toBe(true);
    }
    expect((await verifyState(dir)).problems).toEqual([]);
  });

  it('should keep a byte-identical prefix between turns of one epoch and not churn epochs', async () => {
    const { dir, upstream, proxy } = await setUp();
    const client = new ScriptedClient(proxy.url);

    for (let i = 0; i < 60; i++) await client.turnOnce();

    const wire = (await waitForWire(dir, client.sent.length)).filter((r) => r['route'] === 'messages');
    const received = modelCalls(upstream);
    const latchTurns = wire.flatMap((r, i) => (r['latched'] === undefined ? [] : [i]));
    for (let i = 1; i < received.length; i++) {
      if (wire[i]!['epochs'] !== wire[i - 1]!['epochs']) continue;
      const before = indexTranscript(received[i - 1]!);
      if (before.kind !== 'indexed') throw new Error('does not index');
      const lastMessage = before.index.messages[before.index.messages.length - 1]!;
      // Everything up to the previous request's last message (where the client moves its
      // cache_control marker) must be byte-identical: the provider reads it from the cache.
      expect(commonPrefixLength(received[i - 1]!, received[i]!)).toBeGreaterThanOrEqual(lastMessage.start);
    }
    expect(latchTurns.length).toBeGreaterThanOrEqual(2);
    for (let k = 1; k < latchTurns.length; k++) expect(latchTurns[k]! - latchTurns[k - 1]!).toBeGreaterThanOrEqual(3);
    // How each rewrite ran: from scratch on a new epoch, from the last rewrite within one.
    const paths = wire.map((r, i) => [
      i,
      r['rescued'],
      r['latched'],
      r['rewritePath'],
      i > 0 && wire[i - 1]!['epochs'] === r['epochs'] && (wire[i - 1]!['rescued'] as number) > 0,
    ]);
    for (const [i, rescued, latched, path, followsRewrite] of paths) {
      if ((rescued as number) === 0) expect([i, path]).toEqual([i, undefined]);
      else if (latched !== undefined) expect([i, path]).toEqual([i, 'full']);
      else if (followsRewrite === true) expect([i, path]).toEqual([i, 'incremental']);
    }
    expect(wire.filter((r) => r['rewritePath'] === 'incremental').length).toBeGreaterThan(latchTurns.length);
    // The provider's cache is re-written once per epoch: only latch requests write more than the
    // bytes of the new turn (the upstream prices by shared prefix with the previous request).
    const bigWrites = upstream.usages.flatMap((u, i) => (i > 0 && u.cache_creation_input_tokens * 4 > 2 * 3500 ? [i] : []));
    expect(bigWrites).toEqual(latchTurns);
  });
});

describe('rescue proxy, conversations and count_tokens', () => {
  it('should rewrite count_tokens requests like their conversation and never latch on them', async () => {
    const { dir, upstream, proxy } = await setUp();
    const client = new ScriptedClient(proxy.url);
    for (let i = 0; i < 17; i++) await client.turnOnce();
    // The last reading is over the threshold now; a count_tokens call must not latch.
    const before = (await waitForWire(dir, 17)).length;
    await client.send('/v1/messages/count_tokens?beta=true');
    const counted = (await waitForWire(dir, before + 1)).at(-1)!;
    expect(counted).toMatchObject({ route: 'count_tokens', epochs: 0, rescued: 0 });
    expect(counted['latched']).toBeUndefined();

    await client.turnOnce(); // latches
    await client.send('/v1/messages/count_tokens?beta=true');

    const wire = await waitForWire(dir, before + 3);
    const last = wire.at(-1)!;
    expect(last['route']).toBe('count_tokens');
    expect(last['rescued']).toBe(wire.at(-2)!['rescued']);
    expect(Number(last['rescued'])).toBeGreaterThan(0);
    const received = upstream.requests.at(-1)!;
    expect(received.path).toBe('/v1/messages/count_tokens?beta=true');
    expect(received.body.length).toBeLessThan(client.sent.at(-1)!.length);
  });

  it('should keep a subagent (x-claude-code-agent-id) apart from the main thread with the same first message', async () => {
    const { dir, upstream, proxy } = await setUp();
    const main = new ScriptedClient(proxy.url);
    for (let i = 0; i < 20; i++) await main.turnOnce();
    const agent = new ScriptedClient(proxy.url, { headers: { 'x-claude-code-agent-id': 'a1b2c3d4e5f607182' } });
    for (let i = 0; i < 3; i++) await agent.turnOnce();

    const wire = await waitForWire(dir, 23);
    const keys = new Set(wire.map((r) => r['key']));
    expect(keys.size).toBe(2);
    const agentRecords = wire.filter((r) => r['agentId'] === 'a1b2c3d4e5f607182');
    expect(agentRecords.map((r) => r['rescued'])).toEqual([0, 0, 0]);
    const received = upstream.requests.filter(isMessagesRequest).slice(-3);
    for (const [i, r] of received.entries()) expect(r.body.equals(agent.sent[i]!)).toBe(true);
  });
});

describe('rescue proxy, sessions', () => {
  it('should keep two sessions that open with the same prompt apart by x-claude-code-session-id', async () => {
    const { dir, proxy } = await setUp();
    const first = new ScriptedClient(proxy.url, { headers: { 'x-claude-code-session-id': 'session-one' } });
    const second = new ScriptedClient(proxy.url, { headers: { 'x-claude-code-session-id': 'session-two' } });

    await first.turnOnce();
    await second.turnOnce();

    const keys = (await waitForWire(dir, 2)).map((r) => r['key']);
    expect(new Set(keys).size).toBe(2);
  });
});
