/**
 * Preserved thinking, end to end (docs/rescue.md, "Preserved thinking"): the real proxy on port 0
 * in front of a small upstream on 127.0.0.1 that records every body it gets and answers with a
 * usage reading. On claude-opus-5-5 an epoch latches and the thinking blocks after its first change
 * are gone from that request and every later one, the same bytes each time, in both modes. On a
 * model ctxshed does not know, the upstream refuses the changed request with the prefix check's
 * 400; ctxshed learns it, latches a correction epoch and retries once.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { listThinking } from '../../src/core/thinking/list-thinking.js';
import { inflateFromState } from '../../src/state/inflate-from-state.js';
import { layoutPaths } from '../../src/state/layout.js';
import { readConversation } from '../../src/state/read-conversation.js';
import { verifyState } from '../../src/state/verify-state.js';
import { fromUtf8, mustIndex } from '../core/bodies.js';
import { thinkingLoop } from '../core/thinking/thinking-bodies.js';
import { validateMessagesRequest } from '../support/messages-validator.js';
import { startTestProxy, tempStateDir, testConfig, waitForWire } from '../support/test-proxy.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const MISMATCH = (m: number, b: number): string =>
  JSON.stringify({
    type: 'error',
    error: {
      type: 'invalid_request_error',
      message: `messages.${m}.content.${b}: Invalid \`signature\` in \`thinking\` block. The block is bound to a different conversation. Remove the block, or set \`thinking.block_binding.prefix_mismatch_behavior\` to "drop_block".`,
    },
    request_id: 'req_1',
  });

/** An upstream that records bodies; `refuse` decides whether a body gets the prefix check's 400. */
async function startUpstream(refuse: (body: string) => boolean = () => false): Promise<{ url: string; bodies: string[] }> {
  const bodies: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      bodies.push(body);
      if (refuse(body)) {
        res.writeHead(400, { 'content-type': 'application/json' }).end(MISMATCH(3, 0));
        return;
      }
      // 18,000 of a 20,000 window: over the threshold, so the next request latches.
      const usage = { input_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 17_990, output_tokens: 5 };
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'msg',
          type: 'message',
          role: 'assistant',
          model: 'm',
          content: [{ type: 'text', text: 'ok' }],
          stop_reason: 'end_turn',
          usage,
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies };
}

async function post(url: string, body: Uint8Array): Promise<number> {
  const res = await fetch(`${url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'anthropic-beta': 'thinking-binding-controls-2026-08-01' },
    body,
  });
  await res.arrayBuffer();
  return res.status;
}

const big = (t: number): number => (t < 4 ? 8000 : 40);

function thinkingSignatures(body: string): string[] {
  const bytes = new TextEncoder().encode(body);
  return listThinking(mustIndex(bytes)).map((t) => fromUtf8(bytes.subarray(t.block.start, t.block.end)).slice(0, 40));
}

describe.each(['rescue', 'shed'] as const)('preserved thinking on claude-opus-5-5, %s mode', (mode) => {
  it('should remove the thinking blocks after the change in the latching request and every later one, with the same bytes', async () => {
    const dir = await tempStateDir();
    const upstream = await startUpstream();
    const proxy = await startTestProxy(dir, testConfig(upstream.url, mode === 'shed' ? { mode } : {}));
    cleanups.push(() => proxy.close());

    for (let turns = 10; turns <= 13; turns++) expect(await post(proxy.url, thinkingLoop(turns, 'claude-opus-5-5', big))).toBe(200);

    const wire = await waitForWire(dir, 4);
    expect(wire[1]).toMatchObject({ latched: 1 });
    const removed = Number(wire[1]!['thinkingRemoved']);
    expect(removed).toBeGreaterThan(0);
    // Every later request goes without the same blocks; its own new thinking stays.
    for (const r of wire.slice(2)) expect(r['thinkingRemoved']).toBe(removed);
    const sent = upstream.bodies;
    for (const body of sent.slice(1)) expect(validateMessagesRequest(body)).toEqual([]);
    // A grown transcript keeps its prefix: each request sent starts with the one before it, up to its last message.
    for (let i = 2; i < sent.length; i++) {
      const before = sent[i - 1]!;
      const cut = before.lastIndexOf('{"role":"user"');
      expect(sent[i]!.slice(0, cut)).toBe(before.slice(0, cut));
    }
    const kept = thinkingSignatures(sent[1]!);
    expect(thinkingSignatures(sent[3]!).slice(0, kept.length)).toEqual(kept);
    expect(thinkingSignatures(sent[3]!)).toContain(thinkingSignatures(fromUtf8(thinkingLoop(13, 'claude-opus-5-5', big))).at(-1));
    // The same transcript again: the same bytes.
    expect(await post(proxy.url, thinkingLoop(13, 'claude-opus-5-5', big))).toBe(200);
    expect(upstream.bodies.at(-1)).toBe(sent[3]);
    // Lossless, and verify is clean.
    const state = layoutPaths(dir);
    expect(fromUtf8((await inflateFromState(state, new TextEncoder().encode(sent[3]!))).body)).toBe(fromUtf8(thinkingLoop(13, 'claude-opus-5-5', big)));
    expect((await verifyState(dir)).problems).toEqual([]);
  });
});

describe('the prefix check refusal of a model ctxshed does not know', () => {
  it('should learn it, latch a correction epoch and retry once without the invalidated thinking', async () => {
    const dir = await tempStateDir();
    // The gateway alias runs the check: it refuses any body that holds a ctxshed stub and still the thinking after it.
    const upstream = await startUpstream((body) => body.includes('[ctxshed:') && body.includes('Sig3'));
    const proxy = await startTestProxy(dir, testConfig(upstream.url));
    cleanups.push(() => proxy.close());

    expect(await post(proxy.url, thinkingLoop(10, 'gateway-alias', big))).toBe(200);
    expect(await post(proxy.url, thinkingLoop(10, 'gateway-alias', big))).toBe(200);
    expect(await post(proxy.url, thinkingLoop(11, 'gateway-alias', big))).toBe(200);

    const wire = await waitForWire(dir, 3);
    expect(wire[1]).toMatchObject({ status: 200, retry: { reason: 'prefix_check', firstStatus: 400, at: 'messages.3.content.0', sent: true, status: 200 } });
    expect(Number(wire[1]!['thinkingRemoved'])).toBeGreaterThan(0);
    expect(wire[2]!['thinkingRemoved']).toBe(wire[1]!['thinkingRemoved']);
    const record = await readConversation(layoutPaths(dir), String(wire[1]!['key']));
    expect(record?.prefixCheck).toMatchObject({ model: 'gateway-alias' });
    expect(record?.epochs.map((e) => e.trigger)).toEqual(['threshold', 'prefix_check']);
    // The refused body, then the retry: the client saw one 200.
    expect(upstream.bodies).toHaveLength(4);
    expect(upstream.bodies[2]).not.toBe(upstream.bodies[1]);
  });

  it('should give the client a refusal of its own, unchanged bytes as it was', async () => {
    const dir = await tempStateDir();
    const upstream = await startUpstream(() => true);
    const proxy = await startTestProxy(dir, testConfig(upstream.url));
    cleanups.push(() => proxy.close());

    const res = await fetch(`${proxy.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: thinkingLoop(3, 'claude-opus-5-5'),
    });

    expect(res.status).toBe(400);
    expect(await res.text()).toBe(MISMATCH(3, 0));
    expect(upstream.bodies).toHaveLength(1);
  });
});
