import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { MessagesApi } from '../../src/scripted/messages-api.js';
import { startTestApi } from '../support/scripted-api.js';
import { postRaw } from '../../src/scripted/post-raw.js';
import { isMessagesRequest } from '../../src/scripted/received-request.js';
import type { ScriptedReply } from '../../src/scripted/reply.js';
import { startTestProxy, waitForWire, tempStateDir, testConfig } from '../support/test-proxy.js';
import type { RunningProxy } from '../../src/proxy/start-proxy.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const SSE_EVENTS = [
  'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-x","content":[],"usage":{"input_tokens":12,"cache_creation_input_tokens":100,"cache_read_input_tokens":2000,"output_tokens":1}}}\n\n',
  'event: ping\ndata: {"type": "ping"}\n\n',
  'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"héllo ✓"}}\n\n',
  'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n',
  'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":7}}\n\n',
  'event: message_stop\ndata: {"type":"message_stop"}\n\n',
];

async function setUp(reply: (path: string) => ScriptedReply): Promise<{ dir: string; upstream: MessagesApi; proxy: RunningProxy }> {
  const dir = await tempStateDir();
  // Model calls get the scripted reply; any other path the API's own answer (a 404 for most).
  const upstream = await startTestApi({ respond: (req) => (isMessagesRequest(req) ? reply(req.path) : undefined) });
  const proxy = await startTestProxy(dir, testConfig(upstream.url));
  cleanups.push(
    () => upstream.close(),
    () => proxy.close(),
  );
  return { dir, upstream, proxy };
}

const BODY = Buffer.from('{"model":"claude-x","messages":[{"role":"user","content":"hi"}],"stream":true}');

describe('rescue proxy, faithful forwarding', () => {
  it('should deliver an SSE stream byte-identical, pings included, and read its usage', async () => {
    const { dir, upstream, proxy } = await setUp(() => ({ kind: 'raw', status: 200, headers: { 'content-type': 'text/event-stream' }, chunks: SSE_EVENTS }));

    const res = await postRaw(proxy.url, '/v1/messages?beta=true', BODY);

    expect(res.status).toBe(200);
    expect(res.body.toString('utf8')).toBe(SSE_EVENTS.join(''));
    expect(upstream.requests[0]!.body.equals(BODY)).toBe(true);
    expect(upstream.requests[0]!.path).toBe('/v1/messages?beta=true');
    const [record] = await waitForWire(dir, 1);
    expect(record).toMatchObject({ status: 200, rescued: 0, reason: 'no_epoch', usage: { input: 12, cacheCreation: 100, cacheRead: 2000, output: 7 } });
  });

  it('should pass gzip-compressed bytes through unchanged and still read the usage from a copy', async () => {
    const zipped = gzipSync(Buffer.from(SSE_EVENTS.join('')));
    const { dir, proxy } = await setUp(() => ({
      kind: 'raw',
      status: 200,
      headers: { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' },
      chunks: [zipped.subarray(0, 50), zipped.subarray(50)],
    }));

    const res = await postRaw(proxy.url, '/v1/messages', BODY, { 'accept-encoding': 'gzip, deflate, br, zstd' });

    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.body.equals(zipped)).toBe(true);
    expect((await waitForWire(dir, 1))[0]).toMatchObject({ usage: { cacheRead: 2000, output: 7 } });
  });

  it('should ask upstream only for encodings it can decode', async () => {
    const { upstream, proxy } = await setUp(() => ({ kind: 'json', body: { ok: true } }));

    await postRaw(proxy.url, '/v1/messages', BODY, { 'accept-encoding': 'gzip, deflate, br, zstd' });

    expect(upstream.requests[0]!.headers['accept-encoding']).not.toContain('zstd');
  });

  it('should pass an upstream 429 back unmodified, retry headers included', async () => {
    const body = '{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your rate limit."}}';
    const { proxy } = await setUp(() => ({
      kind: 'raw',
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after': '17', 'x-should-retry': 'true' },
      chunks: [body],
    }));

    const res = await postRaw(proxy.url, '/v1/messages', BODY);

    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('17');
    expect(res.headers['x-should-retry']).toBe('true');
    expect(res.body.toString()).toBe(body);
  });

  it('should pass a mid-stream error event through byte for byte', async () => {
    const chunks = [SSE_EVENTS[0]!, 'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n'];
    const { proxy } = await setUp(() => ({ kind: 'raw', status: 200, headers: { 'content-type': 'text/event-stream' }, chunks }));

    const res = await postRaw(proxy.url, '/v1/messages', BODY);

    expect(res.body.toString()).toBe(chunks.join(''));
  });

  it('should answer in the API error shape, naming ctxshed, when the upstream is unreachable', async () => {
    const dir = await tempStateDir();
    const proxy = await startTestProxy(dir, testConfig('http://127.0.0.1:1'));
    cleanups.push(() => proxy.close());

    const res = await postRaw(proxy.url, '/v1/messages', BODY);

    expect(res.status).toBe(502);
    const parsed = JSON.parse(res.body.toString()) as { type: string; error: { type: string; message: string } };
    expect(parsed.type).toBe('error');
    expect(parsed.error.message).toMatch(/^ctxshed: /);
  });

  it('should forward other methods and paths untouched and log them as not model calls', async () => {
    const { dir, upstream, proxy } = await setUp(() => ({ kind: 'json', body: {} }));

    const res = await postRaw(proxy.url, '/v1/models/some?x=1', Buffer.from('not json at all'));

    expect(res.status).toBe(404);
    expect(upstream.requests[0]!.path).toBe('/v1/models/some?x=1');
    expect(upstream.requests[0]!.body.toString()).toBe('not json at all');
    expect((await waitForWire(dir, 1))[0]).toMatchObject({ reason: 'not_a_model_call', path: '/v1/models/some' });
  });

  it('should refuse a body over the limit with a 413 in the API error shape', async () => {
    const dir = await tempStateDir();
    const upstream = await startTestApi({ respond: () => ({ kind: 'json', body: {} }) });
    const proxy = await startTestProxy(dir, testConfig(upstream.url, { maxRequestBytes: 1000 }));
    cleanups.push(
      () => upstream.close(),
      () => proxy.close(),
    );

    const res = await postRaw(proxy.url, '/v1/messages', Buffer.alloc(5000, 0x20));

    expect(res.status).toBe(413);
    expect(JSON.parse(res.body.toString())).toMatchObject({ type: 'error', error: { type: 'request_too_large' } });
    expect(upstream.requests).toHaveLength(0);
  });
});
