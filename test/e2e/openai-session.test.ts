/**
 * The real proxy on port 0 between a scripted OpenAI client and the scripted OpenAI upstream: a
 * long Responses session and a chat one cross the threshold, latch, stub the old tool outputs,
 * keep their prefix, and every body the upstream got inflates back to what the client sent.
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CHAT_API } from '../../src/core/dialects/chat.js';
import { findStubs } from '../../src/core/epochs/inflate.js';
import { RESPONSES_API } from '../../src/core/dialects/responses.js';
import type { ApiDialect } from '../../src/core/dialects/dialect.js';
import type { TranscriptIndex } from '../../src/core/transcript-index-types.js';
import type { RunningProxy } from '../../src/proxy/start-proxy.js';
import { layoutPaths } from '../../src/state/layout.js';
import { inflateFromState } from '../../src/state/inflate-from-state.js';
import { readConversation } from '../../src/state/read-conversation.js';
import { verifyState } from '../../src/state/verify-state.js';
import { OpenAiScriptedClient } from '../support/openai-scripted-client.js';
import { parseScrape, sumOf } from '../support/prom-text.js';
import {
  chatUsage,
  functionCall,
  isChatRequest,
  isResponsesRequest,
  responsesUsage,
  startOpenAiUpstream,
  type OpenAiUpstream,
} from '../support/responses-upstream.js';
import { startTestProxy, tempStateDir, testConfig, waitForWire } from '../support/test-proxy.js';
import { blocksOf } from '../../src/core/epoch-items.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const BYTES_PER_TOKEN = 4;

/** An upstream whose model calls one tool per turn and reports the body's size as its input, the previous turn's as cached. */
async function startModel(): Promise<OpenAiUpstream> {
  let previous = 0;
  let n = 0;
  return startOpenAiUpstream((req) => {
    const input = Math.ceil(req.body.length / BYTES_PER_TOKEN);
    const cached = Math.min(previous, input);
    previous = input;
    n += 1;
    if (isResponsesRequest(req))
      return { kind: 'response', output: [functionCall('exec_command', { cmd: `cat file-${n}.txt` }, `call_${n}`)], usage: responsesUsage(input, cached) };
    const message = {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: `call_${n}`, type: 'function', function: { name: 'shell', arguments: JSON.stringify({ cmd: `cat file-${n}.txt` }) } }],
    };
    return { kind: 'chat', message, usage: chatUsage(input, cached), finishReason: 'tool_calls' };
  });
}

async function setUp(): Promise<{ dir: string; upstream: OpenAiUpstream; proxy: RunningProxy }> {
  const dir = await tempStateDir('ctxshed-openai-e2e-');
  const upstream = await startModel();
  const proxy = await startTestProxy(dir, testConfig(upstream.baseUrl.replace(/\/v1$/, '')));
  cleanups.push(
    () => upstream.close(),
    () => proxy.close(),
  );
  return { dir, upstream, proxy };
}

function mustIndex(api: ApiDialect, body: Uint8Array): TranscriptIndex {
  const outcome = api.index(body);
  if (outcome.kind !== 'indexed') throw new Error(`${outcome.reason}: ${outcome.detail}`);
  return outcome.index;
}

describe.each([
  ['Responses', 'responses' as const, RESPONSES_API, isResponsesRequest],
  ['chat', 'chat' as const, CHAT_API, isChatRequest],
])('rescue proxy, a scripted %s session', (_name, api, dialect, isModelCall) => {
  it('should forward bytes unchanged before the first epoch, then stub exactly the frozen outputs, keeping the prefix', async () => {
    // Arrange
    const { dir, upstream, proxy } = await setUp();
    const client = new OpenAiScriptedClient(proxy.url, api);

    // Act
    for (let i = 0; i < 30; i++) expect((await client.turnOnce()).status).toBe(200);

    // Assert
    const wire = (await waitForWire(dir, client.sent.length)).filter((r) => r['route'] === api);
    expect(wire).toHaveLength(30);
    expect(wire.every((r) => typeof r['fullness'] === 'number')).toBe(true);
    const firstLatch = wire.findIndex((r) => r['latched'] !== undefined);
    expect(firstLatch).toBeGreaterThan(0);
    expect(firstLatch).toBe(wire.findIndex((r) => Number(r['fullness']) >= 0.7) + 1);
    const received = upstream.requests.filter(isModelCall).map((r) => r.body);
    for (let i = 0; i < firstLatch; i++) expect(received[i]!.equals(client.sent[i]!)).toBe(true);
    const record = await readConversation(layoutPaths(dir), String(wire[firstLatch]!['key']));
    const frozen = record!.epochs.flatMap((e) => blocksOf(e).map((b) => b.ordinal)).sort((a, b) => a - b);
    const last = received.at(-1)!;
    expect(findStubs(last, mustIndex(dialect, last)).map((f) => f.ordinal)).toEqual(frozen);
    // Each stub names the command that produced its output, as the dialect reads the calls.
    const blocks = record!.epochs.flatMap((e) => blocksOf(e));
    expect(blocks.every((b) => /^cat file-\d+\.txt$/.test(b.input ?? ''))).toBe(true);
    expect(last.toString('utf8')).toContain(blocks[0]!.input!);
    // Between latches, each request's items are the next one's first bytes: the cache is kept.
    for (let i = firstLatch + 1; i < received.length; i++) {
      if (wire[i]!['latched'] !== undefined) continue;
      const before = received[i - 1]!;
      const itemsEnd = mustIndex(dialect, before).messagesSpan.end - 1;
      expect(received[i]!.subarray(0, itemsEnd).equals(before.subarray(0, itemsEnd))).toBe(true);
    }
  });

  it('should keep every rewritten body lossless, and the state directory verifiable', async () => {
    // Arrange
    const { dir, upstream, proxy } = await setUp();
    const client = new OpenAiScriptedClient(proxy.url, api);

    // Act
    for (let i = 0; i < 25; i++) await client.turnOnce();

    // Assert
    const received = upstream.requests.filter(isModelCall).map((r) => r.body);
    let stubbed = 0;
    for (const [i, body] of received.entries()) {
      const inflated = await inflateFromState(layoutPaths(dir), body);
      stubbed += inflated.stubs;
      expect(Buffer.from(inflated.body).equals(client.sent[i]!)).toBe(true);
    }
    expect(stubbed).toBeGreaterThan(0);
    expect((await verifyState(dir)).problems).toEqual([]);
  });
});

describe('rescue proxy, a WebSocket upgrade', () => {
  it('should answer 400 to a broken handshake on the Responses path without reaching the upstream, and record and count it with its closed reason', async () => {
    // Arrange
    const { dir, upstream, proxy } = await setUp();
    const socket = net.connect(proxy.port, '127.0.0.1');
    const reply = new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (d: Buffer) => (text += d.toString()));
      socket.on('close', () => resolve(text));
    });

    // Act: version 8, which RFC 6455 does not speak.
    socket.end(
      `GET /v1/responses HTTP/1.1\r\nHost: 127.0.0.1:${proxy.port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 8\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
    );

    // Assert
    expect(await reply).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(upstream.requests).toEqual([]);
    const [record] = await waitForWire(dir, 1);
    expect(record).toMatchObject({ method: 'GET', path: '/v1/responses', route: null, status: 400, refused: 'websocket_handshake' });
    const scrape = parseScrape(await (await fetch(`${proxy.url}/_ctxshed/metrics`)).text());
    expect(sumOf(scrape, 'ctxshed_requests_total', { status: '400' })).toBe(1);
  });
});
