import { createHash } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createUpstreamAgents } from '../../src/proxy/agents.js';
import { forwardToUpstream } from '../../src/proxy/forward.js';
import { classifyUpstreamError } from '../../src/proxy/upstream-errors.js';
import { joinUpstreamPath } from '../../src/proxy/upstream-request.js';
import type { ForwardResult } from '../../src/proxy/forward.js';
import { startMessagesApi, type MessagesApi, type Responder } from '../../src/scripted/messages-api.js';
import { encodeSseEvent } from '../../src/scripted/sse-encode.js';
import { closeServer, headerNames, listen, MESSAGE_STREAM_USAGE, messageStream, PING, replyOn, send, startProxy, within } from './harness.js';
import type { Proxy as TestProxy } from './harness.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The scripted API answering every request with `respond`, and a proxy in front of it. */
async function upstreamAndProxy(
  respond: Responder,
  opts: Parameters<typeof startProxy>[1] = {},
  base = '',
): Promise<{ upstream: MessagesApi; proxy: TestProxy }> {
  const upstream = await startMessagesApi({ respond });
  cleanups.push(() => upstream.close());
  const proxy = await startProxy(new URL(base, upstream.url), opts);
  cleanups.push(() => proxy.close());
  return { upstream, proxy };
}

const JSON_REPLY = {
  id: 'msg_01',
  type: 'message',
  role: 'assistant',
  model: 'claude-haiku-4-5',
  content: [{ type: 'text', text: 'Session title' }],
  usage: { input_tokens: 640, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 9 },
};
const JSON_USAGE = { inputTokens: 640, cacheCreationInputTokens: 0, cacheReadInputTokens: 0, outputTokens: 9, model: 'claude-haiku-4-5' };

describe('joinUpstreamPath', () => {
  it.each([
    ['http://127.0.0.1:9', '/v1/messages?beta=true', '/v1/messages?beta=true'],
    ['http://127.0.0.1:9/', '/v1/messages?beta=true', '/v1/messages?beta=true'],
    ['http://127.0.0.1:9/base', '/v1/messages?beta=true', '/base/v1/messages?beta=true'],
    ['http://127.0.0.1:9/base/', '/v1/messages?beta=true', '/base/v1/messages?beta=true'],
    ['http://127.0.0.1:9/base', '/', '/base/'],
    ['http://127.0.0.1:9/base', '//odd//path?x=%2F', '/base//odd//path?x=%2F'],
    ['http://127.0.0.1:9/base', 'http://localhost:1/v1/x?y=1', '/base/v1/x?y=1'],
  ])('should join %s and %s as %s', (upstream, path, expected) => {
    expect(joinUpstreamPath(new URL(upstream), path)).toBe(expected);
  });
});

describe('classifyUpstreamError', () => {
  const err = (code: string, message = `boom ${code}`): Error => Object.assign(new Error(message), { code });
  it.each([
    ['ECONNREFUSED', 'UPSTREAM_CONNECT_FAILED', 502],
    ['EHOSTUNREACH', 'UPSTREAM_CONNECT_FAILED', 502],
    ['ETIMEDOUT', 'UPSTREAM_CONNECT_TIMEOUT', 504],
    ['ENOTFOUND', 'UPSTREAM_DNS_FAILED', 502],
    ['EAI_AGAIN', 'UPSTREAM_DNS_FAILED', 502],
    ['ERR_SSL_WRONG_VERSION_NUMBER', 'UPSTREAM_TLS_FAILED', 502],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'UPSTREAM_TLS_FAILED', 502],
    ['CERT_HAS_EXPIRED', 'UPSTREAM_TLS_FAILED', 502],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UPSTREAM_TLS_FAILED', 502],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'UPSTREAM_TLS_FAILED', 502],
    ['ECONNRESET', 'UPSTREAM_RESET', 502],
    ['HPE_INVALID_CONSTANT', 'UPSTREAM_BAD_RESPONSE', 502],
    ['EWHATEVER', 'UPSTREAM_REQUEST_FAILED', 502],
  ])('should classify %s as %s (%i)', (code, expected, status) => {
    const failure = classifyUpstreamError(err(code), 'https://api.example');
    expect(failure.code).toBe(expected);
    expect(failure.status).toBe(status);
    expect(failure.message).toMatch(/^(?!ctxshed: ).+https:\/\/api\.example.*: boom /);
  });

  it('should describe a non-Error value without throwing', () => {
    expect(classifyUpstreamError('weird', 'http://x').code).toBe('UPSTREAM_REQUEST_FAILED');
    expect(classifyUpstreamError(null, 'http://x').message).toContain('null');
  });
});

describe('forwardToUpstream', () => {
  it.each(['GET', 'POST', 'HEAD', 'DELETE'])('should preserve method %s and path+query under the base path', async (method) => {
    const { upstream, proxy } = await upstreamAndProxy(
      () => ({ kind: 'raw', status: 200, headers: { 'content-type': 'text/plain', 'content-length': '2' }, chunks: method === 'HEAD' ? [] : ['ok'] }),
      {},
      '/base',
    );
    const body = method === 'POST' || method === 'DELETE' ? Buffer.from('{"a":1}') : undefined;

    const got = await send(proxy.url, { method, path: '/v1/messages?beta=true&x=%2F', ...(body ? { body } : {}) });

    expect(upstream.requests).toHaveLength(1);
    expect(upstream.requests[0]?.method).toBe(method);
    expect(upstream.requests[0]?.path).toBe('/base/v1/messages?beta=true&x=%2F');
    expect(upstream.requests[0]?.body.toString()).toBe(body?.toString() ?? '');
    expect(got.status).toBe(200);
    expect(got.headers['content-length']).toBe('2');
    expect(got.body.toString()).toBe(method === 'HEAD' ? '' : 'ok');
    expect((await proxy.result()).status).toBe(200);
  });

  it('should strip hop-by-hop request headers, and headers named in Connection, keeping the rest as cased', async () => {
    const { upstream, proxy } = await upstreamAndProxy(() => ({ kind: 'raw', chunks: ['ok'] }));

    await send(proxy.url, {
      method: 'POST',
      path: '/v1/messages?beta=true',
      headers: [
        'Host',
        'proxy.local', // raw headers get no Host from Node, and an HTTP/1.1 server requires one
        'Connection',
        'keep-alive, X-Foo',
        'X-Foo',
        'secret-for-this-hop',
        'Keep-Alive',
        'timeout=5',
        'TE',
        'trailers',
        'Trailer',
        'X-Checksum',
        'Upgrade',
        'h2c',
        'Proxy-Authorization',
        'Basic Zm9vOmJhcg==',
        'Proxy-Connection',
        'keep-alive',
        'X-Api-Key',
        'sk-ant-test-000',
        'anthropic-version',
        '2023-06-01',
        'anthropic-beta',
        'a-2025',
        'anthropic-beta',
        'b-2025',
        'Transfer-Encoding',
        'chunked',
      ],
      body: [Buffer.from('{"model":'), Buffer.from('"x"}')], // chunked on the client's side
    });

    const seen = upstream.requests[0];
    const names = headerNames(seen?.rawHeaders ?? []);
    for (const gone of ['x-foo', 'keep-alive', 'te', 'trailer', 'upgrade', 'proxy-authorization', 'proxy-connection', 'transfer-encoding']) {
      expect(names).not.toContain(gone);
    }
    // Any Connection upstream sees is the agent's own, for its own hop.
    expect(seen?.headers.connection ?? '').not.toMatch(/x-foo/i);
    expect(seen?.rawHeaders).toContain('X-Api-Key');
    expect(seen?.headers.host).toBe(new URL(upstream.url).host); // the client's Host is for the proxy's hop
    expect(seen?.headers['anthropic-beta']).toBe('a-2025, b-2025');
    expect(seen?.headers['content-length']).toBe('13');
    expect(seen?.body.toString()).toBe('{"model":"x"}');
  });

  it('should strip hop-by-hop response headers, and headers named in Connection', async () => {
    const { proxy } = await upstreamAndProxy(() => ({
      kind: 'raw',
      headers: [
        ['Content-Type', 'application/json'],
        ['Connection', 'keep-alive, X-Bar'],
        ['X-Bar', 'hop-only'],
        ['Keep-Alive', 'timeout=99'],
        ['Proxy-Authenticate', 'Basic realm="x"'],
        ['Trailer', 'X-Checksum'],
        ['Request-Id', 'req_01'],
        ['Set-Cookie', 'a=1'],
        ['Set-Cookie', 'b=2'],
      ].flat(),
      chunks: ['{}'],
    }));

    const got = await send(proxy.url, { headers: { connection: 'close' } });

    const names = headerNames(got.rawHeaders);
    for (const gone of ['x-bar', 'keep-alive', 'proxy-authenticate', 'trailer']) expect(names).not.toContain(gone);
    expect(got.headers.connection).toBe('close'); // the proxy's own, for the client's hop
    expect(got.rawHeaders).toContain('Request-Id');
    expect(got.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(got.body.toString()).toBe('{}');
  });

  it('should recompute content-length when the body was changed on the way', async () => {
    const { upstream, proxy } = await upstreamAndProxy(() => ({ kind: 'raw', chunks: ['ok'] }), {
      body: (body) => Buffer.concat([body ?? Buffer.alloc(0), Buffer.from(' and more bytes')]),
    });

    await send(proxy.url, { method: 'POST', path: '/v1/messages', headers: { 'content-length': '5' }, body: Buffer.from('hello') });

    expect(upstream.requests[0]?.headers['content-length']).toBe('20');
    expect(upstream.requests[0]?.body.toString()).toBe('hello and more bytes');
  });

  it('should ask upstream only for encodings the tap can decode', async () => {
    const { upstream, proxy } = await upstreamAndProxy(() => ({ kind: 'raw', chunks: ['ok'] }));

    await send(proxy.url, { headers: { 'Accept-Encoding': 'gzip, deflate, br, zstd' } });
    await send(proxy.url, {});

    expect(upstream.requests[0]?.headers['accept-encoding']).toBe('gzip, deflate, br');
    expect(upstream.requests[0]?.rawHeaders).toContain('Accept-Encoding');
    expect(upstream.requests[1]?.headers['accept-encoding']).toBe('identity');
  });

  it.each([
    ['identity', (b: Buffer) => b],
    ['gzip', (b: Buffer) => zlib.gzipSync(b)],
    ['deflate', (b: Buffer) => zlib.deflateSync(b)],
    ['br', (b: Buffer) => zlib.brotliCompressSync(b)],
  ])('should relay a %s JSON reply byte for byte and read its usage', async (encoding, encode) => {
    const wire = encode(Buffer.from(JSON.stringify(JSON_REPLY)));
    const { proxy } = await upstreamAndProxy(() => ({
      kind: 'raw',
      headers: { 'content-type': 'application/json', ...(encoding === 'identity' ? {} : { 'content-encoding': encoding }) },
      chunks: [wire],
    }));

    const got = await send(proxy.url, {
      method: 'POST',
      path: '/v1/messages?beta=true',
      headers: { 'accept-encoding': 'gzip, deflate, br, zstd' },
      body: Buffer.from('{}'),
    });
    const result = await proxy.result();

    expect(got.status).toBe(200);
    expect(got.headers['content-encoding']).toBe(encoding === 'identity' ? undefined : encoding);
    expect(got.body.equals(wire)).toBe(true);
    expect(result.usage).toEqual(JSON_USAGE);
    expect(result.tapError).toBeUndefined();
    expect(result.bytesOut).toBe(wire.length);
  });

  it('should stream SSE as it arrives: the rest is sent only after the client has the first event', async () => {
    const events = messageStream();
    let clientHasStart: () => void = () => undefined;
    const clientGotStart = new Promise<void>((resolve) => {
      clientHasStart = resolve;
    });
    const { proxy } = await upstreamAndProxy(() => ({
      kind: 'raw',
      headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' },
      // If the proxy buffered, the client would never see the first event and the test would fail.
      chunks: [events[0]!, { until: within(clientGotStart, 10_000, 'the client never received message_start: the proxy is buffering') }, ...events.slice(1)],
    }));

    let seenSoFar = '';
    const got = await send(proxy.url, {
      method: 'POST',
      path: '/v1/messages?beta=true',
      body: Buffer.from('{"stream":true}'),
      onChunk: (chunk) => {
        seenSoFar += chunk.toString('latin1');
        if (seenSoFar.includes('event: message_start')) clientHasStart();
      },
    });
    const result = await proxy.result();

    expect(got.complete).toBe(true);
    expect(got.body.equals(Buffer.from(events.join('')))).toBe(true);
    expect(got.body.toString()).toContain('event: ping');
    expect(got.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(result.usage).toEqual(MESSAGE_STREAM_USAGE);
    expect(result.timings.headersMs).toBeTypeOf('number');
  });

  it('should relay a gzip SSE stream byte for byte and read usage from its decompressed copy', async () => {
    const plain = Buffer.from(messageStream().join(''));
    const gz = zlib.createGzip();
    const parts: Buffer[] = [];
    gz.on('data', (c: Buffer) => parts.push(c));
    for (const event of messageStream()) {
      gz.write(event);
      await new Promise<void>((resolve) => gz.flush(() => resolve()));
    }
    await new Promise<void>((resolve) => {
      gz.on('end', resolve);
      gz.end();
    });
    const wire = Buffer.concat(parts);
    expect(zlib.gunzipSync(wire).equals(plain)).toBe(true);
    const { proxy } = await upstreamAndProxy(() => ({
      kind: 'raw',
      headers: { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' },
      chunks: parts,
    }));

    const got = await send(proxy.url, { method: 'POST', body: Buffer.from('{}') });

    expect(got.body.equals(wire)).toBe(true);
    expect((await proxy.result()).usage).toEqual(MESSAGE_STREAM_USAGE);
  });

  it('should relay an error event mid-stream and keep the usage seen before it', async () => {
    const [start = ''] = messageStream();
    const error = encodeSseEvent('error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    const { proxy } = await upstreamAndProxy(() => ({ kind: 'raw', headers: { 'content-type': 'text/event-stream' }, chunks: [start + PING + error] }));

    const got = await send(proxy.url, { method: 'POST', body: Buffer.from('{}') });
    const result = await proxy.result();

    expect(got.body.toString()).toBe(start + PING + error);
    expect(result.streamError).toEqual({ type: 'overloaded_error', message: 'Overloaded' });
    expect(result.usage).toEqual({ ...MESSAGE_STREAM_USAGE, outputTokens: 1 });
    expect(result.error).toBeUndefined();
  });

  it('should relay an upstream 429 unmodified: status line, retry headers and body', async () => {
    const body = JSON.stringify({
      type: 'error',
      error: { type: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit' },
    });
    const { proxy } = await upstreamAndProxy(() => ({
      kind: 'raw',
      status: 429,
      statusMessage: 'Too Many Requests, Slow Down',
      headers: { 'content-type': 'application/json', 'retry-after': '7', 'x-should-retry': 'true', 'anthropic-ratelimit-tokens-remaining': '0' },
      chunks: [body],
    }));

    const got = await send(proxy.url, { method: 'POST', body: Buffer.from('{}') });
    const result = await proxy.result();

    expect(got.status).toBe(429);
    expect(got.statusMessage).toBe('Too Many Requests, Slow Down');
    expect(got.headers['retry-after']).toBe('7');
    expect(got.headers['x-should-retry']).toBe('true');
    expect(got.headers['anthropic-ratelimit-tokens-remaining']).toBe('0');
    expect(got.body.toString()).toBe(body);
    expect(result.status).toBe(429);
    expect(result.usage).toBeUndefined();
    expect(result.tapError).toBeUndefined();
    expect(result.error).toBeUndefined();
  });

  it('should answer 502 in the API error shape when the upstream refuses the connection', async () => {
    const closed = http.createServer();
    const url = await listen(closed);
    await closeServer(closed);
    const proxy = await startProxy(url);
    cleanups.push(() => proxy.close());

    const got = await send(proxy.url, { method: 'POST', path: '/v1/messages', body: Buffer.from('{}') });
    const result = await proxy.result();

    expect(got.status).toBe(502);
    expect(got.headers['content-type']).toBe('application/json');
    const parsed = JSON.parse(got.body.toString()) as { type: string; error: { type: string; message: string } };
    expect(parsed.type).toBe('error');
    expect(parsed.error.type).toBe('api_error');
    expect(parsed.error.message).toMatch(/^ctxshed: could not connect to upstream http:\/\/127\.0\.0\.1:\d+: .*ECONNREFUSED/);
    expect(result).toMatchObject({ status: 502, error: { code: 'UPSTREAM_CONNECT_FAILED' } });
  });

  it("should answer a Codex request's 502 in the OpenAI error shape its client parses", async () => {
    const closed = http.createServer();
    const url = await listen(closed);
    await closeServer(closed);
    const proxy = await startProxy(url);
    cleanups.push(() => proxy.close());

    const got = await send(proxy.url, { method: 'POST', path: '/v1/responses', body: Buffer.from('{}') });

    expect(got.status).toBe(502);
    const parsed = JSON.parse(got.body.toString()) as { type?: string; error: { type: string; code: string; message: string } };
    expect(parsed.type).toBeUndefined();
    expect(parsed.error).toMatchObject({ type: 'server_error', code: 'upstream_connect_failed' });
    expect(parsed.error.message).toMatch(/^ctxshed: could not connect to upstream/);
  });

  it('should answer 502 naming TLS when the upstream does not speak TLS', async () => {
    const plain = await startMessagesApi({ respond: () => ({ kind: 'raw', chunks: ['plain http'] }) });
    cleanups.push(() => plain.close());
    const proxy = await startProxy(new URL(`https://127.0.0.1:${plain.port}`));
    cleanups.push(() => proxy.close());

    const got = await send(proxy.url, { method: 'POST', body: Buffer.from('{}') });

    expect(got.status).toBe(502);
    expect((await proxy.result()).error?.code).toBe('UPSTREAM_TLS_FAILED');
    expect(got.body.toString()).toContain('ctxshed: TLS with upstream');
  });

  it('should answer 502 when the upstream resets the connection before responding', async () => {
    const raw = net.createServer((socket) => socket.once('data', () => socket.resetAndDestroy()));
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => raw.close(() => resolve())));
    const proxy = await startProxy(new URL(`http://127.0.0.1:${(raw.address() as net.AddressInfo).port}`));
    cleanups.push(() => proxy.close());

    const got = await send(proxy.url, { method: 'POST', body: Buffer.from('{}') });

    expect(got.status).toBe(502);
    expect((await proxy.result()).error?.code).toBe('UPSTREAM_RESET');
    expect(got.body.toString()).toContain('ctxshed: upstream');
  });

  it('should retry once on a fresh socket when a pooled keep-alive socket was closed by the server', async () => {
    let connections = 0;
    const raw = net.createServer((socket) => {
      const n = ++connections;
      let requests = 0;
      socket.on('data', () => {
        requests++;
        // The first connection answers once, then drops the next request unanswered, as a server
        // whose idle timeout raced the client's reuse does.
        if (n === 1 && requests === 2) socket.destroy();
        else socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok');
      });
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => raw.close(() => resolve())));
    const proxy = await startProxy(new URL(`http://127.0.0.1:${(raw.address() as net.AddressInfo).port}`));
    cleanups.push(() => proxy.close());

    const first = await send(proxy.url, { method: 'POST', body: Buffer.from('{}') });
    const second = await send(proxy.url, { method: 'POST', body: Buffer.from('{}') });

    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body.toString()).toBe('ok');
    expect(connections).toBe(2);
  });

  it('should answer 504 when the upstream sends no headers within headersMs, and close the upstream request', async () => {
    let upstreamClosed: () => void = () => undefined;
    const closedUpstream = new Promise<void>((resolve) => {
      upstreamClosed = resolve;
    });
    const { proxy } = await upstreamAndProxy(() => ({ kind: 'silent', onClose: upstreamClosed }), { timeouts: { headersMs: 200, idleMs: 10_000 } });

    const got = await send(proxy.url, { method: 'POST', body: Buffer.from('{}') });
    const result = await proxy.result();

    expect(got.status).toBe(504);
    const parsed = JSON.parse(got.body.toString()) as { error: { type: string; message: string } };
    expect(parsed.error.type).toBe('api_error');
    expect(parsed.error.message).toMatch(/^ctxshed: upstream .* sent no response headers: timed out after 200 ms$/);
    expect(result).toMatchObject({ status: 504, error: { code: 'UPSTREAM_HEADERS_TIMEOUT' } });
    await within(closedUpstream, 10_000, 'upstream request was not closed');
  });

  it('should close the upstream request when the client hangs up mid-stream, keeping the usage seen', async () => {
    let upstreamClosed: () => void = () => undefined;
    const closedUpstream = new Promise<void>((resolve) => {
      upstreamClosed = resolve;
    });
    const [start = ''] = messageStream();
    const { proxy } = await upstreamAndProxy(() => ({
      kind: 'raw',
      headers: { 'content-type': 'text/event-stream' },
      chunks: [start],
      end: { repeat: PING, everyMs: 50 }, // a long generation, pinging
      onClose: upstreamClosed,
    }));

    await send(proxy.url, {
      method: 'POST',
      body: Buffer.from('{}'),
      onChunk: (_chunk, req) => req.destroy(),
    }).catch(() => undefined);
    const result = await within(proxy.result(), 10_000, 'forwardToUpstream did not settle');

    await within(closedUpstream, 10_000, 'upstream request was not closed after the client left');
    expect(result.error?.code).toBe('CLIENT_CLOSED');
    expect(result.status).toBe(200);
    expect(result.usage).toEqual({ ...MESSAGE_STREAM_USAGE, outputTokens: 1 });
  });

  it('should cut the client off when the upstream breaks off mid-stream', async () => {
    const [start = ''] = messageStream();
    const { proxy } = await upstreamAndProxy(() => ({
      kind: 'raw',
      headers: { 'content-type': 'text/event-stream' },
      chunks: [start, { afterMs: 50 }],
      end: 'destroy',
    }));

    const got = await send(proxy.url, { method: 'POST', body: Buffer.from('{}') });
    const result = await proxy.result();

    expect(got.status).toBe(200);
    expect(got.complete).toBe(false);
    expect(got.body.toString()).toBe(start);
    expect(result.error?.code).toBe('UPSTREAM_ABORTED');
  });

  it('should cut the client off and close the upstream when the stream goes silent for idleMs', async () => {
    let upstreamClosed: () => void = () => undefined;
    const closedUpstream = new Promise<void>((resolve) => {
      upstreamClosed = resolve;
    });
    const [start = ''] = messageStream();
    const { proxy } = await upstreamAndProxy(
      () => ({ kind: 'raw', headers: { 'content-type': 'text/event-stream' }, chunks: [start], end: 'hang', onClose: upstreamClosed }), // then silence
      { timeouts: { headersMs: 10_000, idleMs: 200 } },
    );

    const got = await send(proxy.url, { method: 'POST', body: Buffer.from('{}') });
    const result = await proxy.result();

    expect(got.complete).toBe(false);
    expect(result.error?.code).toBe('UPSTREAM_IDLE_TIMEOUT');
    expect(result.error?.message).toMatch(/^upstream .* went silent mid-response: no data for 200 ms$/);
    await within(closedUpstream, 10_000, 'upstream request was not closed');
  });

  it('should stop reading the upstream while the client is not reading (backpressure)', async () => {
    const total = 64 * 1024 * 1024;
    const piece = Buffer.alloc(64 * 1024, 'x');
    let upstreamFinished = false;
    const hash = createHash('sha256');
    // The scripted API waits for 'drain' whenever a write says the socket buffer is full.
    const { proxy } = await upstreamAndProxy(() => ({
      kind: 'raw',
      headers: { 'content-type': 'application/octet-stream', 'content-length': String(total) },
      chunks: Array.from({ length: total / piece.length }, () => piece),
      onClose: (finished) => {
        upstreamFinished = finished;
      },
    }));
    for (let i = 0; i < total / piece.length; i++) hash.update(piece);
    const expected = hash.digest('hex');

    const received = createHash('sha256');
    let receivedBytes = 0;
    const done = new Promise<void>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: Number(proxy.url.port), path: '/', agent: false });
      req.on('error', reject);
      req.on('response', (res) => {
        res.pause(); // a client that does not read
        setTimeout(() => {
          // A proxy without backpressure would have pulled all 64 MiB into memory by now.
          if (upstreamFinished) {
            reject(new Error('the upstream finished while the client read nothing: no backpressure'));
            return;
          }
          res.on('data', (c: Buffer) => {
            received.update(c);
            receivedBytes += c.length;
          });
          res.on('end', resolve);
          res.resume();
        }, 1000);
      });
      req.end();
    });
    await within(done, 20_000, 'the body never arrived');

    expect(receivedBytes).toBe(total);
    expect(received.digest('hex')).toBe(expected);
    expect((await proxy.result()).bytesOut).toBe(total);
  });

  it('should answer 502 at once when the signal is already aborted', async () => {
    const agents = createUpstreamAgents();
    cleanups.push(() => {
      agents.http.destroy();
      agents.https.destroy();
    });
    let result: ForwardResult | undefined;
    const server = http.createServer((_req, res) => {
      void forwardToUpstream({
        upstream: new URL('http://127.0.0.1:9'),
        method: 'GET',
        path: '/',
        headers: {},
        body: undefined,
        reply: replyOn(res),
        agents,
        signal: AbortSignal.abort(new Error('shutting down')),
        timeouts: { headersMs: 10_000, idleMs: 10_000 },
      }).then((r) => {
        result = r;
      });
    });
    const url = await listen(server);
    cleanups.push(() => closeServer(server));

    const got = await send(url);

    expect(got.status).toBe(502);
    expect(got.body.toString()).toContain('ctxshed: request cancelled by the proxy: shutting down');
    expect(result?.error?.code).toBe('ABORTED');
  });

  it('should call onResponseStart and onUsage, and survive hooks that throw', async () => {
    const upstream = await startMessagesApi({ respond: () => ({ kind: 'json', body: JSON_REPLY }) });
    cleanups.push(() => upstream.close());
    const agents = createUpstreamAgents();
    cleanups.push(() => agents.http.destroy());
    const calls: string[] = [];
    let result: Promise<ForwardResult> | undefined;
    const server = http.createServer((_req, res) => {
      result = forwardToUpstream({
        upstream: new URL(upstream.url),
        method: 'GET',
        path: '/',
        headers: {},
        body: undefined,
        reply: replyOn(res),
        agents,
        timeouts: { headersMs: 10_000, idleMs: 10_000 },
        onResponseStart: (status, headers) => {
          calls.push(`start ${status} ${headers['content-type']}`);
          throw new Error('hook bug');
        },
        onUsage: (usage, meta) => {
          calls.push(`usage ${usage.inputTokens} ${meta.status}`);
          throw new Error('hook bug');
        },
      });
    });
    const url = await listen(server);
    cleanups.push(() => closeServer(server));

    const got = await send(url);

    expect(got.status).toBe(200);
    expect((await result)?.usage).toEqual(JSON_USAGE);
    expect(calls).toEqual(['start 200 application/json', 'usage 640 200']);
  });

  it("should give the client a body's last bytes only after the promise onUsage returns settles (a replica's shared reading), and not wait forever on one that never does", async () => {
    const upstream = await startMessagesApi({ respond: () => ({ kind: 'json', body: JSON_REPLY }) });
    cleanups.push(() => upstream.close());
    const agents = createUpstreamAgents();
    cleanups.push(() => agents.http.destroy());
    const events: string[] = [];
    let settle = true;
    const server = http.createServer((_req, res) => {
      void forwardToUpstream({
        upstream: new URL(upstream.url),
        method: 'GET',
        path: '/',
        headers: {},
        body: undefined,
        reply: replyOn(res),
        agents,
        timeouts: { headersMs: 10_000, idleMs: 10_000 },
        holdEndForUsage: true,
        onUsage: () => {
          events.push('usage');
          if (!settle) return new Promise<void>(() => undefined);
          return new Promise<void>((resolve) =>
            setTimeout(() => {
              events.push('written');
              resolve();
            }, 200),
          );
        },
      });
    });
    const url = await listen(server);
    cleanups.push(() => closeServer(server));

    const got = await send(url);
    events.push('client has the end');
    const order = [...events];
    settle = false;
    const stuck = await send(url);

    expect(got.status).toBe(200);
    expect(order).toEqual(['usage', 'written', 'client has the end']);
    expect(stuck.status).toBe(200);
    expect(stuck.body).toEqual(got.body);
  });
});

describe('forwardToUpstream with holdBack', () => {
  const TOO_LONG = JSON.stringify({
    type: 'error',
    error: { type: 'invalid_request_error', message: 'prompt is too long: 215000 tokens > 200000 maximum' },
    request_id: 'req_011',
  });
  const HOLD = { status: 400, maxBytes: 1024 * 1024 };
  const refuse =
    (body: string, chunked = false): Responder =>
    () => {
      const bytes = Buffer.from(body);
      const chunks: Buffer[] = [];
      for (let i = 0; i < bytes.length; i += 64 * 1024) chunks.push(bytes.subarray(i, i + 64 * 1024));
      return {
        kind: 'raw',
        status: 400,
        statusMessage: 'Bad Request',
        headers: {
          'content-type': 'application/json',
          'request-id': 'req_011',
          'x-should-retry': 'false',
          ...(chunked ? {} : { 'content-length': String(bytes.length) }),
        },
        chunks,
      };
    };

  it('should hold a small 400 back whole, and relay it later byte for byte as it would have been', async () => {
    const direct = await upstreamAndProxy(refuse(TOO_LONG));
    const holding = await upstreamAndProxy(refuse(TOO_LONG), { holdBack: HOLD });

    const plain = await send(direct.proxy.url, { method: 'POST', body: Buffer.from('{}') });
    const got = await send(holding.proxy.url, { method: 'POST', body: Buffer.from('{}') });
    const result = await holding.proxy.result();

    expect(result.held).toMatchObject({ status: 400, statusMessage: 'Bad Request' });
    expect(result.held?.body.toString()).toBe(TOO_LONG);
    expect(result.status).toBe(0);
    expect(result.bytesOut).toBe(0);
    expect(got.status).toBe(plain.status);
    expect(got.statusMessage).toBe(plain.statusMessage);
    expect(withoutDate(got.rawHeaders)).toEqual(withoutDate(plain.rawHeaders));
    expect(got.body.equals(plain.body)).toBe(true);
  });

  it('should relay a 400 whose body is over maxBytes as usual, announced or found out while reading', async () => {
    const big = 'x'.repeat(300 * 1024);
    const announced = await upstreamAndProxy(refuse(big), { holdBack: { status: 400, maxBytes: 100 * 1024 } });
    const chunked = await upstreamAndProxy(refuse(big, true), { holdBack: { status: 400, maxBytes: 100 * 1024 } });

    const a = await send(announced.proxy.url, { method: 'POST', body: Buffer.from('{}') });
    const c = await send(chunked.proxy.url, { method: 'POST', body: Buffer.from('{}') });

    for (const [got, proxy] of [
      [a, announced.proxy],
      [c, chunked.proxy],
    ] as const) {
      const result = await proxy.result();
      expect(got.status).toBe(400);
      expect(got.body.toString()).toBe(big);
      expect(result.held).toBeUndefined();
      expect(result.status).toBe(400);
      expect(result.bytesOut).toBe(big.length);
    }
  });

  it('should relay every other status as it arrives', async () => {
    const { proxy } = await upstreamAndProxy(() => ({ kind: 'json', body: JSON_REPLY }), { holdBack: HOLD });

    const got = await send(proxy.url, { method: 'POST', body: Buffer.from('{}') });
    const result = await proxy.result();

    expect(got.status).toBe(200);
    expect(result.held).toBeUndefined();
    expect(result.usage).toEqual(JSON_USAGE);
  });
});

/** Raw header pairs without `Date`, which two responses a second apart need not share. */
function withoutDate(raw: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) if (raw[i]?.toLowerCase() !== 'date') out.push(raw[i]!, raw[i + 1]!);
  return out;
}
