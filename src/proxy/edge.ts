/**
 * The proxy's request and response as plain values (handle-request.ts): what the node adapter
 * (handler.ts) reads off a socket, and what it pipes back. A test builds them by hand.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { PassthroughReason } from '../core/passthrough-reasons.js';
import type { WireTransport } from '../state/wire-record.js';
import type { EdgeHead } from './reply.js';

/** One request as the proxy sees it. */
export interface EdgeRequest {
  readonly method: string;
  /** The request-target as the client sent it (path and query, or the absolute form). */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  /**
   * The headers as received, names and values alternating: forwarded with their own casing and
   * order. `headers` is forwarded when they are absent.
   */
  readonly rawHeaders?: readonly string[];
  /** The proxy's own port the request came in on (client-guard.ts says why the Host's port is not checked against it). */
  readonly localPort: number | undefined;
  /** The client's address (own-routes.ts answers loopback peers only). */
  readonly remoteAddress: string | undefined;
  /** The body, whole or as it arrives; read-body.ts stops buffering past the size limit. */
  readonly body: Uint8Array | AsyncIterable<Uint8Array>;
  /** Aborted when the client goes away before its response is complete: the upstream request is then cut. */
  readonly signal?: AbortSignal;
  /** `websocket`: a message of a Responses WebSocket made into this request (websocket/serve-socket.ts); absent: plain HTTP. */
  readonly transport?: WireTransport;
  /**
   * Why this body goes upstream unchanged, when its maker knows better than the engine: the engine
   * passes the body through (it cannot index it), and the record names this reason instead of its own.
   */
  readonly passthrough?: { readonly reason: PassthroughReason; readonly detail: string };
}

/**
 * The answer, ready to write: status line and headers at once, the body as a stream the node
 * adapter pipes (reply.ts says what a body promises).
 */
export interface EdgeResponse extends EdgeHead {
  /**
   * Settles once the request is all done: counted, and its wire record written, after the
   * response (the client never waits for either). Never rejects.
   */
  readonly finished: Promise<void>;
}
