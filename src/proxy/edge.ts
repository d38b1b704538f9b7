/**
 * The proxy's request and response as plain values (handle-request.ts): what the node adapter
 * (handler.ts) reads off a socket, and what it writes back. A test builds them by hand.
 */
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import type { PassthroughReason } from '../core/passthrough-reasons.js';
import type { WireTransport } from '../state/wire-record.js';

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

/** The answer, ready to write: status line and headers at once, the body as it comes. */
export interface EdgeResponse {
  readonly status: number;
  /** The reason phrase the upstream sent, relayed as it was; absent: the standard one. */
  readonly statusMessage: string | undefined;
  readonly headers: OutgoingHttpHeaders;
  /**
   * The body, in the chunks the upstream sent. A pull is what lets the next chunk in
   * (backpressure); it throws when the response is cut off mid-way, and the client must then be
   * cut off too (RFC 9112 §8).
   */
  readonly body: AsyncIterable<Uint8Array>;
  /**
   * Settles once the request is all done: counted, and its wire record written, after the
   * response (the client never waits for either). Never rejects.
   */
  readonly finished: Promise<void>;
}
