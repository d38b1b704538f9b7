/**
 * The thin node adapter around the proxy's per-request logic (handle-request.ts): node's req/res
 * become an `EdgeRequest`, and the `EdgeResponse` is written back with backpressure. A client
 * that goes away aborts the request's signal, which cuts the upstream request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { once } from 'node:events';
import { errorText } from '../errors.js';
import { sendApiError } from './api-error.js';
import type { EdgeRequest, EdgeResponse } from './edge.js';
import { handleProxyRequest } from './handle-request.js';
import type { ProxyDeps } from './proxy-deps.js';

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
      await writeResponse(response, res);
    } catch (error) {
      // Last resort: the proxy must never die on a request.
      sendApiError(res, 500, 'api_error', `internal error: ${errorText(error)}`);
      if (!res.writableEnded) res.destroy();
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
 * while to begin, and the client's stream handling starts on headers), then each chunk, pulling
 * the next only once the socket takes more. A body cut off mid-way cuts the client off
 * (RFC 9112 §8).
 */
async function writeResponse(response: EdgeResponse, res: ServerResponse): Promise<void> {
  if (res.destroyed) return;
  res.writeHead(response.status, response.statusMessage, response.headers);
  res.flushHeaders();
  // Small SSE writes go out at once instead of waiting on Nagle's algorithm.
  res.socket?.setNoDelay(true);
  try {
    for await (const chunk of response.body) {
      if (!res.write(chunk)) await drainedOrClosed(res);
    }
    res.end();
  } catch {
    res.destroy();
  }
}

function drainedOrClosed(res: ServerResponse): Promise<unknown> {
  if (res.destroyed) return Promise.resolve();
  const closed = new AbortController();
  return Promise.race([once(res, 'drain', { signal: closed.signal }), once(res, 'close', { signal: closed.signal })])
    .catch(() => undefined)
    .finally(() => closed.abort());
}
