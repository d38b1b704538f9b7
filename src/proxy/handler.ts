/**
 * The thin node adapter around the proxy's per-request logic (handle-request.ts): node's req
 * becomes an `EdgeRequest`, and the `EdgeResponse` it returns is piped to node's res. A client
 * that goes away aborts the request's signal, which cuts the upstream request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { errorText } from '../errors.js';
import { apiErrorBody } from './api-error.js';
import type { EdgeRequest } from './edge.js';
import { handleProxyRequest } from './handle-request.js';
import type { ProxyDeps } from './proxy-deps.js';
import type { EdgeHead } from './reply.js';

export type { ProxyDeps } from './proxy-deps.js';

/** Handles one request end to end. Never rejects: every failure is answered or logged. */
export type ProxyHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** The handler for a proxy with these dependencies. */
export function createProxyHandler(deps: ProxyDeps): ProxyHandler {
  return async (req, res) => {
    const gone = new AbortController();
    const onClose = (): void => {
      if (!res.writableFinished) gone.abort();
    };
    res.on('close', onClose);
    let finished: Promise<void> | undefined;
    try {
      const response = await handleProxyRequest(deps, edgeRequestOf(req, gone.signal));
      finished = response.finished;
      writeResponse(response, res);
    } catch (error) {
      // Last resort: the proxy must never die on a request.
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' }).end(apiErrorBody('api_error', `internal error: ${errorText(error)}`));
      else res.destroy();
      // A response that could not be written is one nobody reads: its upstream request is cut.
      gone.abort();
    }
    // The request is done once counted and recorded (start-proxy.ts waits for it on close).
    await finished;
    res.off('close', onClose);
  };
}

function edgeRequestOf(req: IncomingMessage, signal: AbortSignal): EdgeRequest {
  return {
    method: req.method ?? 'GET',
    url: req.url ?? '/',
    headers: req.headers,
    rawHeaders: req.rawHeaders,
    localPort: req.socket.localPort,
    remoteAddress: req.socket.remoteAddress,
    body: req,
    signal,
  };
}

/**
 * Writes `response` to the client: the status line and headers at once (an SSE body may take a
 * while to begin, and the client's stream handling starts on headers), then the body piped, with
 * the socket's backpressure. A body cut off mid-way cuts the client off (RFC 9112 §8), and a
 * client gone destroys the body (the upstream request is then cut).
 */
export function writeResponse(response: EdgeHead, res: ServerResponse): void {
  if (res.destroyed) {
    response.body.destroy();
    return;
  }
  res.writeHead(response.status, response.statusMessage, response.headers);
  res.flushHeaders();
  // Small SSE writes go out at once instead of waiting on Nagle's algorithm.
  res.socket?.setNoDelay(true);
  pipeBody(response.body, res);
}

/**
 * `body.pipe(res)`, both ends cut together: a body that breaks cuts the client off, and a client
 * gone destroys the body. What `pipeline` does, without the AbortController (and the DOMException
 * its abort makes) it spends on every response.
 */
function pipeBody(body: Readable, res: ServerResponse): void {
  const onClose = (): void => {
    if (!res.writableFinished) body.destroy();
  };
  body.once('error', () => res.destroy());
  res.once('close', onClose);
  body.pipe(res);
}
