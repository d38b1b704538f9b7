/**
 * Sends one request to the upstream and streams its answer back to the client as it arrives,
 * teeing a copy into the usage tap. The socket edge of the proxy: everything that decides what
 * to send lives elsewhere.
 */
import http from 'node:http';
import type { ClientRequest, IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import https from 'node:https';
import type { ApiName } from '../core/api-dialect.js';
import type { ThinkingDropped } from '../core/thinking/thinking-dropped.js';
import type { UpstreamAgents } from './agents.js';
import { sendApiError } from './api-error.js';
import { forwardableHeaders } from './hop-by-hop.js';
import { createUsageTap } from './usage-tap.js';
import type { StreamError, Usage, UsageTap } from './usage-tap.js';
import { errorText } from '../errors.js';
import { classifyUpstreamError, isStaleSocketError, type ForwardError, type UpstreamFailure } from './upstream-errors.js';
import { joinUpstreamPath, upstreamHeaders } from './upstream-request.js';

/** Passed to `onUsage` with the usage. */
export interface UsageMeta {
  readonly status: number;
  readonly streamError?: StreamError;
}

/** Everything `forwardToUpstream` needs; the caller owns the agents and the client response. */
export interface ForwardArgs {
  readonly upstream: URL;
  readonly method: string;
  /** The client's request-target (path and query), sent verbatim after the upstream's path. */
  readonly path: string;
  /** Forwardable request headers (see `forwardableHeaders`); content-length is recomputed. */
  readonly headers: OutgoingHttpHeaders;
  readonly body: Buffer | undefined;
  readonly clientRes: ServerResponse;
  readonly agents: UpstreamAgents;
  /** Aborting cancels the exchange: 502 if nothing was sent yet, else the client is cut off. */
  readonly signal?: AbortSignal;
  readonly timeouts: { readonly headersMs: number; readonly idleMs: number };
  /** The API of the request, which says how the response writes its usage (Messages by default). */
  readonly api?: ApiName | undefined;
  /** Monotonic clock in ms for the timings; `performance.now` by default. */
  readonly now?: () => number;
  /** Called once upstream headers arrive, before they are relayed. Exceptions are swallowed. */
  onResponseStart?(status: number, headers: IncomingHttpHeaders): void;
  /** Called with the usage read from the response copy, if any. Exceptions are swallowed. */
  onUsage?(usage: Usage, meta: UsageMeta): void;
  /**
   * Hold back a response with this status instead of relaying it, when its body is small: the
   * caller reads it, then relays it with `sendHeldResponse` or answers otherwise (an overflow's
   * 400 is retried, docs/rescue.md). A body over `maxBytes` is relayed as usual after all.
   * Every other status is relayed as it arrives.
   */
  readonly holdBack?: { readonly status: number; readonly maxBytes: number };
}

/** A response held back whole, ready to relay byte for byte. */
export interface HeldResponse {
  readonly status: number;
  readonly statusMessage: string | undefined;
  /** The headers as they would have been relayed (hop-by-hop ones dropped). */
  readonly headers: OutgoingHttpHeaders;
  /** The body as received (still compressed if it was). */
  readonly body: Buffer;
}

/** The outcome; `status` is what the client got (0 if it got no status line). */
export interface ForwardResult {
  /** 0 too when the response was held back: the client got nothing yet. */
  readonly status: number;
  /** Response body bytes relayed to the client, as received (still compressed if they were). */
  readonly bytesOut: number;
  readonly usage?: Usage;
  readonly tapError?: string;
  readonly streamError?: StreamError;
  /** The thinking blocks the API dropped from the request, as its response listed them; absent: none. */
  readonly thinkingDropped?: ThinkingDropped;
  readonly error?: ForwardError;
  /** The response `holdBack` asked for, when it came: nothing of it reached the client. */
  readonly held?: HeldResponse;
  readonly timings: { readonly headersMs?: number; readonly totalMs: number };
}

interface Exchange {
  status: number;
  bytesOut: number;
  headersMs?: number;
  tap?: UsageTap;
  /** Whether `onUsage` was called already. */
  usageReported?: boolean;
  error?: ForwardError;
  held?: HeldResponse;
}

/**
 * Forwards one request and relays the response: status line, headers minus hop-by-hop ones,
 * and the body chunk by chunk as it arrives (compressed bytes untouched; the client decodes).
 * Upstream HTTP errors are relayed like any response. A proxy-side failure before response
 * headers answers 502/504 in the API's error shape; after headers the status cannot change, so
 * the client connection is destroyed, which is how HTTP/1.1 tells a client the body is
 * incomplete (RFC 9112 §8). A client that hangs up aborts the upstream request. Never rejects.
 */
export async function forwardToUpstream(args: ForwardArgs): Promise<ForwardResult> {
  const now = args.now ?? (() => performance.now());
  const startedAt = now();
  const exchange = await exchangeWithUpstream(args, now, startedAt);
  // The client already has the whole response: reading the copy delays nothing.
  const tap = exchange.tap;
  const usage = tap === undefined ? undefined : await tap.end();
  const streamError = tap?.streamError;
  const thinkingDropped = tap?.thinkingDropped;
  const result: ForwardResult = {
    status: exchange.status,
    bytesOut: exchange.bytesOut,
    ...(usage === undefined ? {} : { usage }),
    ...(tap?.error === undefined ? {} : { tapError: tap.error }),
    ...(streamError === undefined ? {} : { streamError }),
    ...(thinkingDropped === undefined ? {} : { thinkingDropped }),
    ...(exchange.error === undefined ? {} : { error: exchange.error }),
    ...(exchange.held === undefined ? {} : { held: exchange.held }),
    timings: {
      ...(exchange.headersMs === undefined ? {} : { headersMs: exchange.headersMs }),
      totalMs: now() - startedAt,
    },
  };
  reportUsage(args, exchange, usage);
  return result;
}

/** Hands the usage to `onUsage`, once per exchange (at the response's end, or when it broke off). */
function reportUsage(args: ForwardArgs, ex: Exchange, usage: Usage | undefined): void {
  if (usage === undefined || ex.usageReported === true) return;
  ex.usageReported = true;
  const streamError = ex.tap?.streamError;
  const meta: UsageMeta = { status: ex.status, ...(streamError === undefined ? {} : { streamError }) };
  runHook(() => args.onUsage?.(usage, meta));
}

function exchangeWithUpstream(args: ForwardArgs, now: () => number, startedAt: number): Promise<Exchange> {
  const { clientRes, upstream } = args;
  const origin = upstream.origin;
  return new Promise<Exchange>((resolve) => {
    const ex: Exchange = { status: 0, bytesOut: 0 };
    let done = false;
    let responded = false;
    let upstreamReq: ClientRequest | undefined;
    let idleTimer: NodeJS.Timeout | undefined;

    const finish = (error?: ForwardError): void => {
      if (done) return;
      done = true;
      clearTimeout(headersTimer);
      clearTimeout(idleTimer);
      clientRes.off('close', onClientClose);
      args.signal?.removeEventListener('abort', onAbort);
      if (error !== undefined) {
        ex.error = error;
        // Destroying (not just unpiping) closes the upstream socket, so nothing leaks or keeps
        // generating tokens for a response nobody reads; the agent never pools a destroyed socket.
        upstreamReq?.destroy();
      }
      resolve(ex);
    };

    const fail = (failure: UpstreamFailure): void => {
      if (done) return;
      if (clientRes.headersSent) clientRes.destroy();
      else if (sendApiError(clientRes, failure.status, 'api_error', failure.message)) ex.status = failure.status;
      finish({ code: failure.code, message: failure.message });
    };

    const onClientClose = (): void => {
      if (clientRes.writableFinished) return;
      finish({ code: 'CLIENT_CLOSED', message: 'the client closed the connection before the response was complete' });
    };

    const onAbort = (): void => {
      fail({ code: 'ABORTED', status: 502, message: `request cancelled by the proxy: ${errorText(args.signal?.reason)}` });
    };

    const headersTimer = setTimeout(() => {
      fail({
        code: 'UPSTREAM_HEADERS_TIMEOUT',
        status: 504,
        message: `upstream ${origin} sent no response headers: timed out after ${args.timeouts.headersMs} ms`,
      });
    }, args.timeouts.headersMs);

    const onIdle = (): void => {
      fail({
        code: 'UPSTREAM_IDLE_TIMEOUT',
        status: 504,
        message: `upstream ${origin} went silent mid-response: no data for ${args.timeouts.idleMs} ms`,
      });
    };

    const onResponse = (res: IncomingMessage): void => {
      if (done) {
        res.resume();
        return;
      }
      responded = true;
      clearTimeout(headersTimer);
      ex.headersMs = now() - startedAt;
      const status = res.statusCode ?? 502; // always set on a client-side response
      const tap = createUsageTap({
        api: args.api,
        contentType: res.headers['content-type'],
        contentEncoding: res.headers['content-encoding'],
      });
      ex.tap = tap;
      runHook(() => args.onResponseStart?.(status, res.headers));
      // The body passes through byte for byte, so the upstream's content-length stays true.
      const headers = forwardableHeaders(res.rawHeaders, { keepContentLength: true });
      const relayHead = (): boolean => {
        try {
          clientRes.writeHead(status, res.statusMessage, headers);
          // Send the status line and headers now, not with the first body chunk: the client's
          // stream handling starts on headers, and an SSE body may take a while to begin.
          clientRes.flushHeaders();
        } catch (err) {
          const what = `upstream ${origin} sent a response that cannot be relayed`;
          fail({ code: 'UPSTREAM_BAD_RESPONSE', status: 502, message: `${what}: ${errorText(err)}` });
          return false;
        }
        ex.status = status;
        // Small SSE writes go out at once instead of waiting on Nagle's algorithm.
        clientRes.socket?.setNoDelay(true);
        return true;
      };
      // A held-back response is collected whole; one that turns out large is relayed after all.
      let held = holdsBack(args, status, res.headers) ? ([] as Buffer[]) : undefined;
      let heldBytes = 0;
      if (held === undefined && !relayHead()) return;
      idleTimer = setTimeout(onIdle, args.timeouts.idleMs);

      res.on('data', (chunk: Buffer) => {
        if (done) return;
        idleTimer?.refresh();
        if (held !== undefined) {
          held.push(chunk);
          heldBytes += chunk.length;
          if (heldBytes <= (args.holdBack?.maxBytes ?? 0)) return;
          chunk = Buffer.concat(held);
          held = undefined;
          if (!relayHead()) return;
        }
        ex.bytesOut += chunk.length;
        const flushed = clientRes.write(chunk);
        tap.write(chunk); // after the client's write: the copy never holds up the original
        if (flushed) return;
        // Backpressure: stop reading the upstream while the client's socket is full, so memory
        // stays bounded by high-water marks, not the response size. A slow reader is not a silent
        // upstream, so the idle clock stops meanwhile.
        res.pause();
        clearTimeout(idleTimer);
        clientRes.once('drain', () => {
          if (done) return;
          idleTimer = setTimeout(onIdle, args.timeouts.idleMs);
          res.resume();
        });
      });
      res.on('end', () => {
        if (done) return;
        clearTimeout(idleTimer);
        if (held !== undefined) {
          ex.held = { status, statusMessage: res.statusMessage, headers, body: Buffer.concat(held) };
          finish();
          return;
        }
        // Read the usage before the client sees the end: a client that sends its next request the
        // moment this one ends is then judged on this response's reading, never on the one before.
        void tap
          .end()
          .then((usage) => reportUsage(args, ex, usage))
          .finally(() => clientRes.end(() => finish()));
      });
      const onBroken = (err?: Error): void => {
        if (done || res.complete) return;
        const detail = err === undefined ? 'connection closed' : err.message;
        fail({ code: 'UPSTREAM_ABORTED', status: 502, message: `upstream ${origin} broke off the response: ${detail}` });
      };
      res.on('error', onBroken);
      res.on('close', () => onBroken());
    };

    const send = (attempt: number): void => {
      let req: ClientRequest;
      try {
        const isHttps = upstream.protocol === 'https:';
        if (!isHttps && upstream.protocol !== 'http:') throw new Error(`unsupported protocol ${upstream.protocol}`);
        const options = {
          protocol: upstream.protocol,
          hostname: upstream.hostname.replace(/^\[(.*)\]$/, '$1'), // IPv6 literal without brackets
          port: upstream.port === '' ? (isHttps ? 443 : 80) : Number(upstream.port),
          method: args.method,
          path: joinUpstreamPath(upstream, args.path),
          headers: upstreamHeaders(args.headers, args.body),
        };
        req = isHttps ? https.request({ ...options, agent: args.agents.https }) : http.request({ ...options, agent: args.agents.http });
      } catch (err) {
        fail(classifyUpstreamError(err, origin));
        return;
      }
      upstreamReq = req;
      req.setNoDelay(true);
      req.on('response', onResponse);
      req.on('error', (err) => {
        // After headers, a broken body shows up on the response's own events.
        if (done || responded || req !== upstreamReq) return;
        // A pooled keep-alive socket the server closed while idle fails on first use; the request
        // never reached the server, so one retry on a fresh socket is safe (Node's http docs,
        // `request.reusedSocket`).
        if (attempt === 0 && req.reusedSocket && isStaleSocketError(err)) {
          send(1);
          return;
        }
        fail(classifyUpstreamError(err, origin));
      });
      req.end(args.body);
    };

    if (clientRes.destroyed || clientRes.writableEnded) {
      finish({ code: 'CLIENT_CLOSED', message: 'the client closed the connection before the request was sent' });
      return;
    }
    clientRes.on('close', onClientClose);
    if (args.signal?.aborted === true) {
      onAbort();
      return;
    }
    args.signal?.addEventListener('abort', onAbort, { once: true });
    send(0);
  });
}

/**
 * Relays a held-back response to the client, byte for byte as `forwardToUpstream` would have:
 * status, reason phrase, headers and body. Returns the body bytes written (0 if the client left).
 */
export function sendHeldResponse(clientRes: ServerResponse, held: HeldResponse): number {
  if (clientRes.headersSent || clientRes.destroyed || clientRes.writableEnded) return 0;
  try {
    clientRes.writeHead(held.status, held.statusMessage, held.headers);
    clientRes.end(held.body);
    return held.body.length;
  } catch {
    clientRes.destroy();
    return 0;
  }
}

// Only a body whose announced length fits is collected; a chunked one is checked as it comes.
function holdsBack(args: ForwardArgs, status: number, headers: IncomingHttpHeaders): boolean {
  const hold = args.holdBack;
  if (hold === undefined || status !== hold.status) return false;
  const length = headers['content-length'];
  return length === undefined || Number(length) <= hold.maxBytes;
}

/** A hook's bug must not break the client's response or the proxy. */
function runHook(hook: () => void): void {
  try {
    hook();
  } catch {
    // swallowed on purpose, see above
  }
}
