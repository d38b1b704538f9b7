/**
 * Rescue on overflow for the OpenAI APIs, end to end: the real proxy on port 0 in front of the
 * scripted OpenAI upstream with a context window, which refuses a model call over it as the API
 * does (docs/openai.md, "Rescue on overflow"): a streamed Responses request inside its 200 stream
 * (`response.failed`, `context_length_exceeded`), held at its head and rescued by one retry; a
 * chat request with a 400. The Responses refusal names no count, so ctxshed estimates one; the
 * chat refusal names both.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningProxy } from '../../src/proxy/start-proxy.js';
import { postRaw } from '../../src/scripted/post-raw.js';
import { inflateFromState } from '../../src/state/inflate-from-state.js';
import { layoutPaths } from '../../src/state/layout.js';
import { readConversation } from '../../src/state/read-conversation.js';
import { verifyState } from '../../src/state/verify-state.js';
import { CLIENT_SESSION, OpenAiScriptedClient } from '../support/openai-scripted-client.js';
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

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const BYTES_PER_TOKEN = 4;
const LIMIT = 16_000;

const tokensOf = (body: Buffer): number => Math.ceil(body.length / BYTES_PER_TOKEN);

/** A model that calls one tool per turn and reports the body's size as its input; refuses any body over `limit` tokens. */
async function startModel(limit: number): Promise<OpenAiUpstream> {
  let n = 0;
  return startOpenAiUpstream(
    (req) => {
      n += 1;
      const input = tokensOf(req.body);
      if (isResponsesRequest(req))
        return { kind: 'response', output: [functionCall('exec_command', { cmd: `cat file-${n}.txt` }, `call_${n}`)], usage: responsesUsage(input, 0) };
      const call = { id: `call_${n}`, type: 'function', function: { name: 'shell', arguments: JSON.stringify({ cmd: `cat file-${n}.txt` }) } };
      return { kind: 'chat', message: { role: 'assistant', content: null, tool_calls: [call] }, usage: chatUsage(input, 0), finishReason: 'tool_calls' };
    },
    { contextWindow: { tokens: limit, bytesPerToken: BYTES_PER_TOKEN } },
  );
}

// A window of 20,000 tokens, an upstream limit of 16,000 and a threshold of 90%: readings never pass
// 80%, so no epoch latches on the threshold and every epoch here is an overflow's.
async function setUp(limit = LIMIT): Promise<{ dir: string; upstream: OpenAiUpstream; proxy: RunningProxy }> {
  const dir = await tempStateDir('ctxshed-openai-overflow-');
  const upstream = await startModel(limit);
  const proxy = await startTestProxy(dir, testConfig(upstream.baseUrl.replace(/\/v1$/, ''), { threshold: 0.9 }));
  cleanups.push(
    () => upstream.close(),
    () => proxy.close(),
  );
  return { dir, upstream, proxy };
}

// A streamed Responses request is refused inside its 200 stream (response.failed); chat gets a 400.
describe.each([
  ['Responses', 'responses' as const, isResponsesRequest, true, 200],
  ['chat', 'chat' as const, isChatRequest, false, 400],
])('rescue on overflow, a scripted %s session', (_name, api, isModelCall, estimated, refusalStatus) => {
  it("should latch at once on the API's refusal and retry once: the client sees only 200s", async () => {
    // Arrange
    const { dir, upstream, proxy } = await setUp();
    const client = new OpenAiScriptedClient(proxy.url, api);

    // Act
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await client.turnOnce()).status);

    // Assert
    expect(statuses.every((s) => s === 200)).toBe(true);
    const wire = (await waitForWire(dir, 30)).filter((r) => r['route'] === api);
    const retried = wire.filter((r) => r['retry'] !== undefined);
    expect(retried.length).toBeGreaterThan(0);
    for (const r of retried) {
      expect(r['retry']).toMatchObject({
        reason: 'overflow',
        firstStatus: refusalStatus,
        sent: true,
        status: 200,
        ...(estimated ? { estimated: true } : { limit: LIMIT }),
      });
      expect(Number((r['retry'] as { tokens: number }).tokens)).toBeGreaterThan(LIMIT);
      expect(r['latched']).toBeTypeOf('number');
    }
    // Each refused turn went upstream twice, the refused body then the smaller retry; no other did.
    const calls = upstream.requests.filter(isModelCall);
    const refused = calls.filter((r) => tokensOf(r.body) > LIMIT);
    expect(refused).toHaveLength(retried.length);
    expect(calls).toHaveLength(30 + retried.length);
    for (const first of refused) {
      const retry = upstream.requests[first.index + 1]!;
      expect(retry.body.length).toBeLessThan(first.body.length);
      expect(tokensOf(retry.body)).toBeLessThanOrEqual(LIMIT);
      expect(Buffer.from((await inflateFromState(layoutPaths(dir), retry.body)).body).equals(await inflateOrSelf(dir, first.body))).toBe(true);
    }
    const record = await readConversation(layoutPaths(dir), String(retried[0]!['key']));
    expect(record?.epochs[0]?.trigger).toBe('overflow');
    expect(record?.epochs[0]?.reason).toMatchObject({ contextTokens: (retried[0]!['retry'] as { tokens: number }).tokens });
    expect((await verifyState(dir)).problems).toEqual([]);
  });

  it('should give the client the original refusal, byte for byte, when nothing can be freed', async () => {
    // Arrange: a limit so small that the first request, with no tool output yet, is over it.
    const { dir, upstream, proxy } = await setUp(10);
    const client = new OpenAiScriptedClient(proxy.url, api);

    // Act
    const got = await client.turnOnce();
    const path = api === 'responses' ? '/v1/responses' : '/v1/chat/completions';
    const direct = await postRaw(upstream.baseUrl.replace(/\/v1$/, ''), path, client.sent[0]!, {
      'content-type': 'application/json',
      'session-id': CLIENT_SESSION,
    });

    // Assert
    expect(got.status).toBe(refusalStatus);
    expect(direct.status).toBe(refusalStatus);
    expect(got.body).toBe(direct.body.toString('utf8'));
    expect(upstream.requests.filter(isModelCall)).toHaveLength(2); // ours, then the direct one
    const [record] = await waitForWire(dir, 1);
    expect(record).toMatchObject({ status: refusalStatus, retry: { reason: 'overflow', firstStatus: refusalStatus, sent: false, why: 'nothing_new' } });
  });
});

// The refused body went out as the client sent it, or rewritten by earlier epochs: inflated, it is the client's.
async function inflateOrSelf(dir: string, body: Buffer): Promise<Buffer> {
  return Buffer.from((await inflateFromState(layoutPaths(dir), body)).body);
}

describe('rescue on overflow, a scripted Responses session over the WebSocket', () => {
  it('should hold the in-stream refusal of a message, latch and retry once: the socket sees only completed responses', async () => {
    // Arrange
    const { dir, upstream, proxy } = await setUp();
    const client = new OpenAiScriptedClient(proxy.url, 'responses', () => 3000, 'websocket');
    cleanups.push(() => client.closeSocket());

    // Act
    const answers: string[] = [];
    for (let i = 0; i < 30; i++) {
      const answer = await client.turnOnce();
      expect(answer.status).toBe(200);
      answers.push(answer.body);
    }

    // Assert
    expect(answers.every((a) => a.includes('"type":"response.completed"') && !a.includes('response.failed'))).toBe(true);
    const wire = (await waitForWire(dir, 31)).filter((r) => r['route'] === 'responses' && r['warmup'] === undefined);
    expect(wire.every((r) => r['transport'] === 'websocket')).toBe(true);
    const retried = wire.filter((r) => r['retry'] !== undefined);
    expect(retried.length).toBeGreaterThan(0);
    for (const r of retried) expect(r['retry']).toMatchObject({ reason: 'overflow', firstStatus: 200, sent: true, status: 200, estimated: true });
    expect(upstream.requests.filter(isResponsesRequest)).toHaveLength(30 + retried.length);
  });
});
