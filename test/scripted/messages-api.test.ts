import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createSseParser } from '../../src/core/sse-parser.js';
import { countTokens, priceRequest } from '../../src/scripted/cache-pricing.js';
import { startMessagesApi, type MessagesApi, type MessagesApiOptions } from '../../src/scripted/messages-api.js';
import { isMessagesRequest } from '../../src/scripted/received-request.js';
import { decodeSse } from '../../src/scripted/sse-decode.js';
import { encodeSseEvent } from '../../src/scripted/sse-encode.js';

interface RawResponse {
  status: number;
  statusMessage: string;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  /** Exactly the bytes on the wire after de-chunking, never decompressed. */
  body: Buffer;
  /** The body as the separate reads that arrived. */
  reads: Buffer[];
  /** False when the connection broke before the body was complete. */
  complete: boolean;
}

/** A plain node:http call without an agent, so compression and framing stay visible to the test. */
async function call(
  url: string,
  opts: { method?: string; path?: string; headers?: Record<string, string>; body?: Buffer | string; onRead?: (read: Buffer, destroy: () => void) => void } = {},
): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  return await new Promise((resolve, reject) => {
    let responded = false;
    const req = httpRequest(
      { hostname, port, method: opts.method ?? 'POST', path: opts.path ?? '/v1/messages?beta=true', headers: opts.headers ?? {}, agent: false },
      (res) => {
        responded = true;
        const reads: Buffer[] = [];
        res.on('data', (c: Buffer) => {
          reads.push(c);
          opts.onRead?.(c, () => req.destroy());
        });
        res.on('error', () => undefined);
        res.on('close', () =>
          resolve({
            status: res.statusCode ?? 0,
            statusMessage: res.statusMessage ?? '',
            headers: res.headers,
            rawHeaders: res.rawHeaders,
            body: Buffer.concat(reads),
            reads,
            complete: res.complete,
          }),
        );
      },
    );
    // Once a response has begun, a broken connection shows as an incomplete response instead.
    req.on('error', (error) => (responded ? undefined : reject(error)));
    req.end(opts.body);
  });
}

const STREAM_BODY = '{"model":"m","messages":[{"role":"user","content":"hi"}],"stream":true}';
const JSON_BODY = '{"model":"m","messages":[{"role":"user","content":"hi"}]}';

let api: MessagesApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

async function start(options: MessagesApiOptions = {}): Promise<MessagesApi> {
  api = await startMessagesApi(options);
  return api;
}

describe('startMessagesApi', () => {
  it('should listen on 127.0.0.1 and give a base URL without a trailing slash', async () => {
    const up = await start();

    expect(up.url).toBe(`http://127.0.0.1:${up.port}`);
    expect(up.port).toBeGreaterThan(0);
  });

  it('should record the exact body bytes, raw path and headers, and arrival order', async () => {
    const seen: number[] = [];
    const up = await start({ onRequest: (r) => seen.push(r.index) });
    const odd = Buffer.from('{ "model":"m" ,"messages":[{"role":"user","content":"h\\u00e9llo \u2713 \ud83d\ude00"}] }\n', 'utf8');

    await call(up.url, { body: odd, headers: { 'X-Claude-Code-Session-Id': 's-1' } });
    await call(up.url, { path: '/v1/messages/count_tokens?beta=true', body: '{}' });

    expect(up.requests.map((r) => [r.index, r.method, r.path])).toEqual([
      [0, 'POST', '/v1/messages?beta=true'],
      [1, 'POST', '/v1/messages/count_tokens?beta=true'],
    ]);
    expect(up.requests[0]!.body.equals(odd)).toBe(true);
    expect(up.requests[0]!.headers['x-claude-code-session-id']).toBe('s-1');
    expect(up.requests[0]!.rawHeaders).toContain('X-Claude-Code-Session-Id');
    expect(seen).toEqual([0, 1]);
  });

  it('should number requests from firstIndex', async () => {
    const up = await start({ firstIndex: 1000 });

    await call(up.url, { method: 'HEAD', path: '/' });

    expect(up.requests[0]!.index).toBe(1000);
  });
});

describe('startMessagesApi, model calls', () => {
  it('should stream a message when the body says stream:true, with usage priced by the prompt-cache model', async () => {
    const up = await start();

    const res = await call(up.url, { body: STREAM_BODY });

    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(res.headers['request-id']).toMatch(/^req_01/);
    const { message, content } = decodeSse(res.body.toString('utf8'));
    expect(content).toEqual([{ type: 'tool_use', id: expect.stringMatching(/^toolu_01/) as unknown, name: 'Read', input: { file_path: '/src/file-0.ts' } }]);
    expect(message['usage']).toMatchObject({ ...priceRequest(undefined, Buffer.from(STREAM_BODY)), output_tokens: 20 });
    expect(message['stop_reason']).toBe('tool_use');
  });

  it('should send the message as one JSON body otherwise', async () => {
    const up = await start();

    const res = await call(up.url, { body: JSON_BODY });

    expect(res.headers['content-type']).toBe('application/json');
    expect(JSON.parse(res.body.toString('utf8'))).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'm',
      content: [{ type: 'tool_use', name: 'Read' }],
    });
  });

  it('should read the shared prefix of a conversation from the cache and write the rest', async () => {
    const up = await start();
    const first = Buffer.from(`{"messages":[${'"a",'.repeat(500)}"b"]}`);
    const second = Buffer.from(`{"messages":[${'"a",'.repeat(500)}"c","d"]}`);

    await call(up.url, { body: first });
    await call(up.url, { body: second });

    expect(up.usages[0]).toMatchObject(priceRequest(undefined, first));
    expect(up.usages[1]).toMatchObject(priceRequest(first, second));
    expect(up.usages[1]!.cache_read_input_tokens).toBeGreaterThan(up.usages[1]!.cache_creation_input_tokens);
  });

  it('should price conversations apart when told how to tell them apart', async () => {
    const up = await start({ conversationOf: (req) => String(req.headers['x-claude-code-agent-id'] ?? 'main') });

    await call(up.url, { body: JSON_BODY });
    await call(up.url, { body: JSON_BODY, headers: { 'x-claude-code-agent-id': 'a1' } });
    await call(up.url, { body: JSON_BODY });

    expect(up.usages.map((u) => u.cache_read_input_tokens > 0)).toEqual([false, false, true]);
  });

  it('should answer with the responder content, model, stop reason, id and usage overrides', async () => {
    const up = await start({
      respond: () => ({
        kind: 'message',
        content: [{ type: 'text', text: 'Done.' }],
        id: 'msg_01Fixed',
        usage: { input_tokens: 7 },
        outputTokens: 2,
        model: 'claude-x',
      }),
    });

    const res = await call(up.url, { body: JSON_BODY });

    expect(JSON.parse(res.body.toString('utf8'))).toMatchObject({
      id: 'msg_01Fixed',
      model: 'claude-x',
      stop_reason: 'end_turn',
      content: [{ type: 'text', text: 'Done.' }],
      usage: { input_tokens: 7, output_tokens: 2 },
    });
  });

  it('should answer a responder that throws with a 500 api_error', async () => {
    const up = await start({
      respond: () => {
        throw new Error('boom');
      },
    });

    const res = await call(up.url, { body: JSON_BODY });

    expect(res.status).toBe(500);
    expect(JSON.parse(res.body.toString('utf8'))).toMatchObject({
      type: 'error',
      error: { type: 'api_error', message: expect.stringContaining('boom') as unknown },
    });
  });
});

describe('startMessagesApi, the prompt limit', () => {
  it('should refuse a model call over maxPromptTokens with the API 400 "prompt is too long" shape', async () => {
    const up = await start({ maxPromptTokens: 10, respond: () => ({ kind: 'message', content: [{ type: 'text', text: 'never' }] }) });
    const body = 'x'.repeat(41);

    const res = await call(up.url, { body });

    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('application/json');
    const parsed = JSON.parse(res.body.toString('utf8')) as { request_id: string };
    expect(parsed).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: `prompt is too long: ${countTokens(Buffer.from(body))} tokens > 10 maximum` },
      request_id: parsed.request_id,
    });
    expect(parsed.request_id).toMatch(/^req_01/);
    expect(res.headers['request-id']).toBe(parsed.request_id);
    expect(up.usages).toEqual([]);
  });

  it('should answer a streaming call over the limit with the same JSON error, not a stream', async () => {
    const up = await start({ maxPromptTokens: 5 });

    const res = await call(up.url, { body: STREAM_BODY });

    expect(res.status).toBe(400);
    expect(JSON.parse(res.body.toString('utf8'))).toMatchObject({
      error: { type: 'invalid_request_error', message: expect.stringMatching(/^prompt is too long: \d+ tokens > 5 maximum$/) as unknown },
    });
  });

  it('should answer a model call at the limit, and count_tokens over it', async () => {
    const up = await start({ maxPromptTokens: 10 });

    const atLimit = await call(up.url, { body: 'x'.repeat(40) });
    const counted = await call(up.url, { path: '/v1/messages/count_tokens', body: 'x'.repeat(400) });

    expect(atLimit.status).toBe(200);
    expect(JSON.parse(counted.body.toString('utf8'))).toEqual({ input_tokens: 100 });
  });
});

describe('startMessagesApi, the window by default', () => {
  const bodyOf = (model: string, bytes: number): string => {
    const head = JSON.stringify({ model, max_tokens: 1, messages: [{ role: 'user', content: '' }] });
    return head.replace('"content":""', `"content":"${'x'.repeat(bytes - head.length)}"`);
  };

  it("should refuse a model call over its model's window (200,000 for an older model) and count it", async () => {
    const up = await start();

    const over = await call(up.url, { body: bodyOf('claude-sonnet-4-5', 200_001 * 4) });
    const under = await call(up.url, { body: bodyOf('claude-sonnet-4-5', 200_000 * 4) });

    expect(over.status).toBe(400);
    expect(JSON.parse(over.body.toString('utf8'))).toMatchObject({
      error: { type: 'invalid_request_error', message: 'prompt is too long: 200001 tokens > 200000 maximum' },
    });
    expect(under.status).toBe(200);
    expect(up.refusedForSize()).toBe(1);
  });

  it('should take the 1M window of a 1M model, and refuse nothing with maxPromptTokens: false', async () => {
    const up = await start();
    const off = await start({ maxPromptTokens: false });

    const big = await call(up.url, { body: bodyOf('claude-opus-5', 300_000 * 4) });
    const unchecked = await call(off.url, { body: bodyOf('claude-sonnet-4-5', 300_000 * 4) });

    expect(big.status).toBe(200);
    expect(unchecked.status).toBe(200);
    expect(up.refusedForSize() + off.refusedForSize()).toBe(0);
  });
});

describe('startMessagesApi, other paths', () => {
  it('should count tokens as bytes/4 when the responder declines', async () => {
    const up = await start();

    const res = await call(up.url, { path: '/v1/messages/count_tokens?beta=true', body: 'x'.repeat(4001) });

    expect(JSON.parse(res.body.toString('utf8'))).toEqual({ input_tokens: 1001 });
  });

  it('should answer HEAD / with 200, unknown paths with the API 404 and another method on the API paths with 405', async () => {
    const up = await start();

    const head = await call(up.url, { method: 'HEAD', path: '/' });
    const unknown = await call(up.url, { method: 'GET', path: '/v1/models' });
    const wrongMethod = await call(up.url, { method: 'GET', path: '/v1/messages' });

    expect(head.status).toBe(200);
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body.toString('utf8'))).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers['allow']).toBe('POST');
    expect(up.requests).toHaveLength(3);
  });

  it('should ask the responder about every path, falling back when it declines', async () => {
    const up = await start({ respond: (req) => (isMessagesRequest(req) ? undefined : { kind: 'json', body: { any: req.path } }) });

    const other = await call(up.url, { method: 'GET', path: '/v1/models?x=1' });

    expect(JSON.parse(other.body.toString('utf8'))).toEqual({ any: '/v1/models?x=1' });
  });

  it('should refuse CONNECT and record the attempt', async () => {
    const up = await start();

    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({ hostname: '127.0.0.1', port: up.port, method: 'CONNECT', path: 'api.anthropic.com:443' });
      req.on('connect', (res, socket) => {
        socket.destroy();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });

    expect(status).toBe(403);
    expect(up.requests.map((r) => [r.method, r.path])).toEqual([['CONNECT', 'api.anthropic.com:443']]);
  });

  it('should close while a keep-alive connection is still open', async () => {
    const up = await start();
    await fetch(`${up.url}/v1/messages`, { method: 'POST', body: '{}' }).then(async (r) => r.text());

    await expect(up.close()).resolves.toBeUndefined();
    api = undefined;
  });
});

describe('startMessagesApi, scripted faults', () => {
  it('should send a json reply with its status, status message and headers', async () => {
    const up = await start({ respond: () => ({ kind: 'json', status: 429, statusMessage: 'Slow Down', headers: { 'retry-after': '1' }, body: { a: 'ü' } }) });

    const res = await call(up.url, { body: '{}' });

    expect(res.status).toBe(429);
    expect(res.statusMessage).toBe('Slow Down');
    expect(res.headers['retry-after']).toBe('1');
    expect(res.headers['content-type']).toBe('application/json');
    expect(JSON.parse(res.body.toString('utf8'))).toEqual({ a: 'ü' });
  });

  it.each([
    ['gzip', zlib.gunzipSync],
    ['deflate', zlib.inflateSync],
    ['br', zlib.brotliDecompressSync],
  ] as const)('should compress a json reply with %s when asked', async (encoding, decode) => {
    const up = await start({ respond: () => ({ kind: 'json', body: { ok: true }, encoding }) });

    const res = await call(up.url, { body: '{}' });

    expect(res.headers['content-encoding']).toBe(encoding);
    expect(JSON.parse(decode(res.body).toString('utf8'))).toEqual({ ok: true });
  });

  it('should flush each event of a compressed stream as it is written', async () => {
    const up = await start({ respond: () => ({ kind: 'message', content: [{ type: 'text', text: 'hello' }], encoding: 'gzip', delayMs: 5 }) });

    const res = await call(up.url, { body: STREAM_BODY });

    expect(res.headers['content-encoding']).toBe('gzip');
    expect(decodeSse(zlib.gunzipSync(res.body).toString('utf8')).content).toEqual([{ type: 'text', text: 'hello' }]);
    expect(res.reads.length).toBeGreaterThan(1);
  });

  it('should send an error event mid-stream after the given number of events, status still 200', async () => {
    const error = { type: 'overloaded_error', message: 'Overloaded' };
    const up = await start({ respond: () => ({ kind: 'message', content: [{ type: 'text', text: 'hello' }], errorAfter: { events: 2, error } }) });

    const res = await call(up.url, { body: STREAM_BODY });

    expect(res.status).toBe(200);
    const events = createSseParser().push(res.body.toString('utf8'));
    expect(events.map((e) => e.event)).toEqual(['message_start', 'content_block_start', 'error']);
    expect(JSON.parse(events[2]!.data)).toEqual({ type: 'error', error });
    expect(() => decodeSse(res.body.toString('utf8'))).toThrow(/overloaded_error/);
  });

  it('should write raw chunks untouched, raw header lines as given', async () => {
    const up = await start({
      respond: () => ({
        kind: 'raw',
        status: 502,
        headers: ['Content-Type', 'text/html', 'Set-Cookie', 'a=1', 'Set-Cookie', 'b=2'],
        chunks: ['<h1>', Buffer.from([0xff, 0x00])],
      }),
    });

    const res = await call(up.url, { body: '{}' });

    expect(res.status).toBe(502);
    expect(res.rawHeaders).toContain('Content-Type');
    expect(res.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(res.body.equals(Buffer.concat([Buffer.from('<h1>'), Buffer.from([0xff, 0x00])]))).toBe(true);
  });

  it('should wait for a promise between chunks', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const up = await start({ respond: () => ({ kind: 'raw', status: 200, chunks: ['first ', { until: gate }, 'second'] }) });

    const res = await call(up.url, { body: '{}', onRead: (read) => read.toString().startsWith('first') && release() });

    expect(res.body.toString()).toBe('first second');
    expect(res.reads.length).toBeGreaterThan(1);
  });

  it('should break the connection off mid-stream when the stream ends in destroy', async () => {
    const start_ = encodeSseEvent('message_start', { type: 'message_start' });
    const up = await start({
      respond: () => ({ kind: 'raw', status: 200, headers: { 'content-type': 'text/event-stream' }, chunks: [start_, { afterMs: 20 }], end: 'destroy' }),
    });

    const res = await call(up.url, { body: '{}' });

    expect(res.complete).toBe(false);
    expect(res.body.toString()).toBe(start_);
  });

  it('should keep repeating a chunk until the client leaves, and say when the response closed', async () => {
    const ping = encodeSseEvent('ping', { type: 'ping' });
    let closed: () => void = () => undefined;
    const wasClosed = new Promise<void>((resolve) => (closed = resolve));
    const up = await start({ respond: () => ({ kind: 'raw', status: 200, chunks: [], end: { repeat: ping, everyMs: 10 }, onClose: closed }) });

    let seen = '';
    await call(up.url, { body: '{}', onRead: (read, destroy) => (seen += read.toString()).split(ping).length > 3 && destroy() });

    await wasClosed;
    expect(seen.startsWith(ping + ping)).toBe(true);
  });

  it('should never answer a silent reply, and say when the other side gave up', async () => {
    let closed: () => void = () => undefined;
    const wasClosed = new Promise<void>((resolve) => (closed = resolve));
    const up = await start({ respond: () => ({ kind: 'silent', onClose: closed }) });

    await expect(
      new Promise((resolve, reject) => {
        const req = httpRequest({ hostname: '127.0.0.1', port: up.port, method: 'POST', path: '/v1/messages', agent: false }, resolve);
        req.on('error', reject);
        req.end('{}', () => setTimeout(() => req.destroy(new Error('gave up')), 50));
      }),
    ).rejects.toThrow('gave up');
    await wasClosed;
  });

  it('should reset the connection before any response, or in the middle of one', async () => {
    const up = await start({
      respond: (req) => (req.path === '/before' ? { kind: 'reset' } : { kind: 'raw', status: 200, chunks: ['part', { afterMs: 20 }], end: 'reset' }),
    });

    await expect(call(up.url, { path: '/before', body: '{}' })).rejects.toMatchObject({ code: 'ECONNRESET' });
    const middle = await call(up.url, { path: '/middle', body: '{}' });

    expect(middle.complete).toBe(false);
    expect(middle.body.toString()).toBe('part');
  });

  it('should tell onClose whether the response was written whole', async () => {
    const closes: boolean[] = [];
    const up = await start({
      respond: (req) => ({
        kind: 'raw',
        status: 200,
        chunks: ['a', { afterMs: 20 }],
        end: req.path === '/cut' ? 'destroy' : 'end',
        onClose: (finished) => closes.push(finished),
      }),
    });

    await call(up.url, { path: '/whole', body: '{}' });
    await call(up.url, { path: '/cut', body: '{}' });
    for (let i = 0; i < 100 && closes.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 10));

    expect(closes).toEqual([true, false]);
  });

  it('should let a custom reply write the response itself', async () => {
    const up = await start({
      respond: () => ({
        kind: 'custom',
        write: (res) => {
          res.writeHead(201, { 'x-custom': 'yes' });
          res.end('made here');
        },
      }),
    });

    const res = await call(up.url, { method: 'HEAD', path: '/anything' });

    expect(res.status).toBe(201);
    expect(res.headers['x-custom']).toBe('yes');
  });
});
