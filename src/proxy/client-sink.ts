/**
 * What the proxy writes a response into: the part of node's `ServerResponse` it uses. The edge
 * (handle-request.ts) hands the forwarding code an in-memory one (edge-response-sink.ts), whose
 * bytes become the `EdgeResponse` body; a `ServerResponse` fits it as well, so the forwarding
 * code can also write straight to a socket (test/proxy/harness.ts does).
 */
import type { OutgoingHttpHeaders } from 'node:http';

/** A response being written to the client. */
export interface ClientSink {
  /** The status line and headers are out: a status can no longer be answered. */
  readonly headersSent: boolean;
  readonly destroyed: boolean;
  readonly writableEnded: boolean;
  /** The client has taken the whole response. */
  readonly writableFinished: boolean;
  setHeader(name: string, value: string): unknown;
  writeHead(status: number, statusMessage: string | undefined, headers: OutgoingHttpHeaders): unknown;
  /** Sends the status line and headers now, before the first body chunk. */
  flushHeaders(): void;
  /** False when the client's buffer is full: wait for `drain`. */
  write(chunk: Buffer): boolean;
  end(cb?: () => void): unknown;
  end(chunk: Buffer, cb?: () => void): unknown;
  /** Cuts the client off: how HTTP/1.1 says a body is incomplete (RFC 9112 §8). */
  destroy(): unknown;
  once(event: 'drain', listener: () => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  off(event: 'close', listener: () => void): unknown;
}
