/**
 * Real sockets on 127.0.0.1 for the proxy tests: a tiny proxy and a raw client. The upstream they
 * talk to is the scripted Messages API (src/scripted/messages-api.ts).
 */
import http from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createUpstreamAgents } from '../../src/proxy/agents.js';
import type { UpstreamAgents } from '../../src/proxy/agents.js';
import { forwardToUpstream, sendHeldResponse } from '../../src/proxy/forward.js';
import type { ForwardArgs, ForwardResult } from '../../src/proxy/forward.js';
import { writeResponse } from '../../src/proxy/handler.js';
import { forwardableHeaders } from '../../src/proxy/hop-by-hop.js';
import { Reply } from '../../src/proxy/reply.js';
import { assistantMessage } from '../../src/scripted/message.js';
import { encodeSseEvent, messageEvents } from '../../src/scripted/sse-encode.js';

/**
 * A reply whose answer is written to `res` as the proxy's node adapter writes it (handler.ts),
 * and whose signal aborts when the client goes away first.
 */
export function replyOn(res: ServerResponse): Reply {
  const gone = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  const reply = new Reply(gone.signal);
  void reply.head.then((head) => writeResponse(head, res));
  return reply;
}

/** Starts `server` on an ephemeral loopback port and returns its base URL. */
export async function listen(server: Server): Promise<URL> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return new URL(`http://127.0.0.1:${port}`);
}

/** Closes `server` and every connection it still has. */
export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** A running proxy: each request is forwarded by `forwardToUpstream` with the harness's agents. */
export interface Proxy {
  readonly url: URL;
  readonly server: Server;
  readonly agents: UpstreamAgents;
  /** The result of the n-th forwarded request (0-based), once it settles. */
  result(n?: number): Promise<ForwardResult>;
  close(): Promise<void>;
}

/** Per-request overrides; `body` maps the received body (e.g. a rewrite that changes its length). */
export interface ProxyOptions {
  readonly timeouts?: ForwardArgs['timeouts'];
  readonly headers?: (req: IncomingMessage) => OutgoingHttpHeaders;
  readonly body?: (body: Buffer | undefined) => Buffer | undefined;
  /** Passed to forwardToUpstream; a held response is then relayed with sendHeldResponse. */
  readonly holdBack?: ForwardArgs['holdBack'];
}

/** A proxy in front of `upstream`, built the way the real one is: read body, forward. */
export async function startProxy(upstream: URL, opts: ProxyOptions = {}): Promise<Proxy> {
  const agents = createUpstreamAgents();
  const settled = new Map<number, { promise: Promise<ForwardResult>; resolve: (r: ForwardResult) => void }>();
  const slot = (n: number): { promise: Promise<ForwardResult>; resolve: (r: ForwardResult) => void } => {
    let entry = settled.get(n);
    if (entry === undefined) {
      let resolve: (r: ForwardResult) => void = () => undefined;
      const promise = new Promise<ForwardResult>((r) => {
        resolve = r;
      });
      entry = { promise, resolve };
      settled.set(n, entry);
    }
    return entry;
  };
  let count = 0;
  const server = http.createServer((req, res) => {
    const n = count++;
    const reply = replyOn(res);
    void (async (): Promise<void> => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const received = chunks.length === 0 ? undefined : Buffer.concat(chunks);
      const body = opts.body === undefined ? received : opts.body(received);
      const result = await forwardToUpstream({
        upstream,
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: opts.headers === undefined ? forwardableHeaders(req.rawHeaders) : opts.headers(req),
        body,
        reply,
        agents,
        timeouts: opts.timeouts ?? { headersMs: 10_000, idleMs: 10_000 },
        ...(opts.holdBack === undefined ? {} : { holdBack: opts.holdBack }),
      });
      if (result.held !== undefined) sendHeldResponse(reply, result.held);
      slot(n).resolve(result);
    })();
  });
  const url = await listen(server);
  return {
    url,
    server,
    agents,
    result(n = 0): Promise<ForwardResult> {
      return slot(n).promise;
    },
    async close(): Promise<void> {
      await closeServer(server);
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

/** What the test client received. */
export interface Received {
  readonly status: number;
  readonly statusMessage: string;
  readonly headers: IncomingHttpHeaders;
  readonly rawHeaders: readonly string[];
  readonly chunks: Buffer[];
  readonly body: Buffer;
  /** False when the connection broke before the body was complete. */
  readonly complete: boolean;
}

/** Options of `send`. */
export interface SendOptions {
  readonly method?: string;
  readonly path?: string;
  readonly headers?: OutgoingHttpHeaders | readonly string[];
  readonly body?: Buffer | readonly Buffer[];
  /** Sees each body chunk as it arrives, with the request (to destroy it, say). */
  readonly onChunk?: (chunk: Buffer, req: http.ClientRequest) => void;
}

/**
 * One request with no agent and no decompression: the client sees raw bytes. A `body` given as
 * several buffers is sent with chunked transfer-encoding.
 */
export function send(base: URL, opts: SendOptions = {}): Promise<Received> {
  // Node frames a GET/DELETE body only with an explicit content-length (it adds none itself).
  const body = opts.body;
  const headers =
    Buffer.isBuffer(body) && !Array.isArray(opts.headers)
      ? { 'content-length': String(body.length), ...(opts.headers as OutgoingHttpHeaders | undefined) }
      : opts.headers;
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: base.hostname,
      port: Number(base.port),
      method: opts.method ?? 'GET',
      path: opts.path ?? '/',
      headers: headers as OutgoingHttpHeaders,
      agent: false,
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => {
        chunks.push(c);
        opts.onChunk?.(c, req);
      });
      const settle = (): void =>
        resolve({
          status: res.statusCode ?? 0,
          statusMessage: res.statusMessage ?? '',
          headers: res.headers,
          rawHeaders: res.rawHeaders,
          chunks,
          body: Buffer.concat(chunks),
          complete: res.complete,
        });
      res.on('error', () => undefined);
      res.on('close', settle);
    });
    req.on('error', reject);
    if (body === undefined) req.end();
    else if (Buffer.isBuffer(body)) req.end(body);
    else {
      for (const part of body as readonly Buffer[]) req.write(part);
      req.end();
    }
  });
}

/** Header names (lower case) present in a rawHeaders list. */
export function headerNames(rawHeaders: readonly string[]): string[] {
  return rawHeaders.filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase());
}

/** Resolves with `value`, or rejects after `ms` with `what` (a generous guard, not a threshold). */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms);
  });
  return Promise.race([promise, guard]).finally(() => clearTimeout(timer));
}

/** The message `messageStream()` streams: one text block, with the usage of a conversation deep in the cache. */
const STREAM_MESSAGE = assistantMessage({
  id: 'msg_01',
  model: 'claude-sonnet-4-5',
  content: [{ type: 'text', text: 'Héllo, wörld ✓' }],
  usage: { input_tokens: 12, cache_creation_input_tokens: 3000, cache_read_input_tokens: 120000, output_tokens: 57 },
});

/** A realistic Messages stream, one string per event, from the scripted API's encoder. */
export function messageStream(): string[] {
  return messageEvents(STREAM_MESSAGE).map((e) => encodeSseEvent(e.event, e.data));
}

/** A `ping` event's wire text. */
export const PING = encodeSseEvent('ping', { type: 'ping' });

/** The usage `messageStream()` carries, as the usage tap reads it. */
export const MESSAGE_STREAM_USAGE = {
  inputTokens: 12,
  cacheCreationInputTokens: 3000,
  cacheReadInputTokens: 120000,
  outputTokens: 57,
  model: 'claude-sonnet-4-5',
  cacheCreation: { ephemeral5m: 3000, ephemeral1h: 0 },
} as const;
