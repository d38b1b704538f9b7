/**
 * Upstream and client faults: the client gets the upstream's answer unmodified or an API-shaped
 * ctxshed error, nothing hangs past the configured timeouts, and no file descriptor leaks.
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_FREE_SOCKETS } from '../../src/proxy/agents.js';
import type { RunningProxy } from '../../src/proxy/start-proxy.js';
import { startMessagesApi } from '../../src/scripted/messages-api.js';
import type { ReceivedRequest } from '../../src/scripted/received-request.js';
import type { ScriptedReply } from '../../src/scripted/reply.js';
import { encodeSseEvent } from '../../src/scripted/sse-encode.js';
import { startTestProxy, tempStateDir, testConfig } from '../support/test-proxy.js';

const TIMEOUTS = { headersMs: 300, idleMs: 300 };
const FAULTED = Number(process.env['CTXSHED_FAULT_COUNT'] ?? 2000);

const ERRORS: Record<string, { status: number; headers: Record<string, string>; body: string }> = {
  '429': {
    status: 429,
    headers: { 'retry-after': '7', 'x-should-retry': 'true', 'anthropic-ratelimit-requests-remaining': '0' },
    body: '{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}',
  },
  '500': { status: 500, headers: { 'x-should-retry': 'true' }, body: '{"type":"error","error":{"type":"api_error","message":"Internal server error"}}' },
  '529': {
    status: 529,
    headers: { 'retry-after': '3', 'x-should-retry': 'false' },
    body: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
  },
};

/** The scripted API misbehaving as the request's `x-fault` header says. */
interface FaultyUpstream {
  url: string;
  /** Upstream requests whose connection closed before their response was complete. */
  cutShort: number;
  close(): Promise<void>;
}

async function startFaultyUpstream(): Promise<FaultyUpstream> {
  const up: FaultyUpstream = { url: '', cutShort: 0, close: async () => undefined };
  const ping = (n: number): string => encodeSseEvent('ping', { type: 'ping', n });
  const onClose = (finished: boolean): void => {
    if (!finished) up.cutShort++;
  };
  const stream = { status: 200, headers: { 'content-type': 'text/event-stream' }, onClose } as const;
  const respond = (req: ReceivedRequest): ScriptedReply => {
    const fault = String(req.headers['x-fault'] ?? 'ok');
    const error = ERRORS[fault];
    if (error !== undefined)
      return {
        kind: 'raw',
        status: error.status,
        headers: { 'content-type': 'application/json', 'request-id': 'req_fault', ...error.headers },
        chunks: [error.body],
        onClose,
      };
    switch (fault) {
      case 'reset-before-headers':
        return { kind: 'reset' };
      case 'reset-mid-stream':
        return { kind: 'raw', ...stream, chunks: [ping(0), { afterMs: 20 }], end: 'reset' };
      case 'stall-before-headers':
        return { kind: 'silent', onClose };
      case 'stall-mid-stream':
        return { kind: 'raw', ...stream, chunks: [ping(0)], end: 'hang' };
      case 'slow-stream':
        return { kind: 'raw', ...stream, chunks: Array.from({ length: 200 }, (_, n) => [{ afterMs: 10 }, ping(n)]).flat() };
      default:
        return { kind: 'message', content: [{ type: 'text', text: 'ok' }], usage: { input_tokens: 1, output_tokens: 1 }, onClose };
    }
  };
  const api = await startMessagesApi({ respond });
  up.url = api.url;
  up.close = () => api.close();
  return up;
}

interface Outcome {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The response ended without its whole body (the connection was cut). */
  cut: boolean;
  error?: string;
}

const BODY = Buffer.from('{"model":"m","max_tokens":10,"messages":[{"role":"user","content":"hi"}]}');

/** One request with a fresh connection; `abortAfterFirstChunk` hangs up once a byte arrived. */
function request(url: string, fault: string, opts: { abortAfterFirstChunk?: boolean } = {}): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = http.request(new URL('/v1/messages', url), {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/json', 'content-length': String(BODY.length), 'x-fault': fault, 'x-api-key': 'sk-ant-fault' },
    });
    req.setTimeout(15_000, () => req.destroy(new Error('client gave up after 15 s: the proxy hung')));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => {
        chunks.push(c);
        if (opts.abortAfterFirstChunk === true) req.destroy();
      });
      const done = (cut: boolean): void => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), cut });
      res.on('end', () => done(!res.complete));
      res.on('close', () => done(!res.complete));
      res.on('error', () => done(true));
    });
    req.on('error', (e) => resolve({ status: 0, headers: {}, body: Buffer.alloc(0), cut: true, error: e.message }));
    req.end(BODY);
  });
}

/** Sends headers and part of a body, then hangs up. */
function abortMidRequest(url: string): Promise<void> {
  return new Promise((resolve) => {
    const { port } = new URL(url);
    const s = net.connect(Number(port), '127.0.0.1', () => {
      s.write(
        `POST /v1/messages HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n{"model":"m","messages":[`,
      );
      setTimeout(() => s.destroy(), 5);
    });
    s.on('close', () => resolve());
    s.on('error', () => undefined);
  });
}

async function openFds(): Promise<number> {
  return (await fs.readdir('/proc/self/fd')).length;
}

function apiError(o: Outcome): { type: string; error: { type: string; message: string } } {
  return JSON.parse(o.body.toString('utf8')) as { type: string; error: { type: string; message: string } };
}

let upstream: FaultyUpstream;
let proxy: RunningProxy;
beforeAll(async () => {
  upstream = await startFaultyUpstream();
  proxy = await startTestProxy(await tempStateDir(), testConfig(upstream.url, { timeouts: TIMEOUTS }));
});
afterAll(async () => {
  await proxy.close();
  await upstream.close();
});

describe('upstream and client faults', () => {
  it('should relay 429/500/529 with retry-after and x-should-retry unmodified', async () => {
    for (const [fault, want] of Object.entries(ERRORS)) {
      const got = await request(proxy.url, fault);
      expect(got.status).toBe(want.status);
      expect(got.body.toString('utf8')).toBe(want.body);
      for (const [name, value] of Object.entries(want.headers)) expect(got.headers[name]).toBe(value);
    }
  });

  it('should answer a refused connection with an API-shaped 502 naming ctxshed', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refusing = await startTestProxy(await tempStateDir(), testConfig(`http://127.0.0.1:${port}`, { timeouts: TIMEOUTS }));
    const got = await request(refusing.url, 'ok');
    await refusing.close();
    expect(got.status).toBe(502);
    expect(apiError(got).type).toBe('error');
    expect(apiError(got).error.message).toMatch(/^ctxshed: could not connect to upstream/);
  });

  it('should answer a reset or a stall before headers with an API-shaped 502/504', async () => {
    const reset = await request(proxy.url, 'reset-before-headers');
    const stall = await request(proxy.url, 'stall-before-headers');
    expect(reset.status).toBe(502);
    expect(apiError(reset).error.message).toMatch(/^ctxshed: upstream .* closed the connection/);
    expect(stall.status).toBe(504);
    expect(apiError(stall).error.message).toMatch(/^ctxshed: upstream .* sent no response headers: timed out after 300 ms/);
  });

  it('should cut the client off (never a hang, never a made-up end) on a reset or a stall mid-stream', async () => {
    const reset = await request(proxy.url, 'reset-mid-stream');
    const stall = await request(proxy.url, 'stall-mid-stream');
    for (const got of [reset, stall]) {
      expect(got.status).toBe(200);
      expect(got.cut).toBe(true);
      expect(got.error).toBeUndefined();
      expect(got.body.toString('utf8')).toMatch(/^event: ping\n/);
    }
  });

  it('should close the upstream request when the client hangs up mid-stream or mid-request', async () => {
    const before = upstream.cutShort;
    const got = await request(proxy.url, 'slow-stream', { abortAfterFirstChunk: true });
    for (let i = 0; i < 200 && upstream.cutShort === before; i++) await new Promise((r) => setTimeout(r, 25));
    await abortMidRequest(proxy.url);
    const alive = await request(proxy.url, 'ok');
    expect(got.status).toBe(200);
    expect(upstream.cutShort).toBe(before + 1);
    expect(alive.status).toBe(200);
  });

  it(`should leak no file descriptor over ${FAULTED} faulted requests`, async () => {
    const kinds = [
      '429',
      '500',
      '529',
      'reset-before-headers',
      'reset-mid-stream',
      'stall-before-headers',
      'stall-mid-stream',
      'slow-stream-abort',
      'abort-mid-request',
      'ok',
    ];
    // Warm up: fill the upstream keep-alive pool so the baseline includes it.
    await Promise.all(Array.from({ length: 16 }, () => request(proxy.url, 'ok')));
    const before = await openFds();
    const tally: Record<string, number> = {};
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < FAULTED) {
        const kind = kinds[next++ % kinds.length]!;
        tally[kind] = (tally[kind] ?? 0) + 1;
        if (kind === 'abort-mid-request') await abortMidRequest(proxy.url);
        else if (kind === 'slow-stream-abort') await request(proxy.url, 'slow-stream', { abortAfterFirstChunk: true });
        else {
          const got = await request(proxy.url, kind);
          if (got.error !== undefined) throw new Error(`${kind}: ${got.error}`);
        }
      }
    };
    await Promise.all(Array.from({ length: 40 }, worker));
    // Sockets close asynchronously after the last response; give them a moment to go.
    let after = await openFds();
    for (let i = 0; i < 100 && after > before; i++) {
      await new Promise((r) => setTimeout(r, 50));
      after = await openFds();
    }
    console.log(`fds: before ${before}, after ${FAULTED} faulted requests ${after}; ${JSON.stringify(tally)}`);
    // The pool may hold up to DEFAULT_MAX_FREE_SOCKETS idle upstream connections (two fds each
    // in this one process: proxy side and upstream side); the warm-up already filled it.
    expect(after - before).toBeLessThanOrEqual(2 * DEFAULT_MAX_FREE_SOCKETS);
  }, 120_000);
});
