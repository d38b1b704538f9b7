/**
 * The response the edge returns (handle-request.ts), written the way a socket is: the forwarding
 * code writes a status line, headers and chunks into it, and the `EdgeResponse` body hands them
 * on as they are pulled. A write past the high-water mark asks the writer to wait for `drain`, so
 * a slow client holds the upstream back (relay-response.ts) and memory stays bounded; a client
 * that goes away (the request's signal) closes it, which the forwarding code takes as a socket
 * closing: the upstream request is cut.
 */
import { EventEmitter } from 'node:events';
import { validateHeaderName, validateHeaderValue, type OutgoingHttpHeaders } from 'node:http';
import type { ClientSink } from './client-sink.js';
import type { EdgeResponse } from './edge.js';

/** Bytes queued and not yet pulled past which `write` says to wait for `drain`. */
export const EDGE_HIGH_WATER_MARK_BYTES = 64 * 1024;

/** An `EdgeResponse` but for when the request is done, which the edge adds. */
export type EdgeHead = Omit<EdgeResponse, 'finished'>;

// What node refuses in a reason phrase or header value (RFC 9110 §5.5: no CR, LF or NUL).
const INVALID_HEADER_CHAR = /[^\t\x20-\x7e\x80-\xff]/;

/** One response, in memory, on its way to the client. */
export class EdgeResponseSink extends EventEmitter implements ClientSink {
  headersSent = false;
  destroyed = false;
  writableEnded = false;
  writableFinished = false;
  /** Settles with the status line, headers and body once `writeHead` is called. */
  readonly head: Promise<EdgeHead>;
  #resolveHead: (head: EdgeHead) => void = () => undefined;
  readonly #preset = Object.create(null) as OutgoingHttpHeaders;
  readonly #queue: Buffer[] = [];
  #queued = 0;
  #needDrain = false;
  #wake: (() => void) | undefined;
  #onFinished: (() => void) | undefined;

  constructor(signal?: AbortSignal) {
    super();
    this.head = new Promise((resolve) => {
      this.#resolveHead = resolve;
    });
    if (signal?.aborted === true) this.destroy();
    else signal?.addEventListener('abort', () => this.destroy(), { once: true });
  }

  setHeader(name: string, value: string): this {
    this.#preset[name] = value;
    return this;
  }

  /** Throws, as node's does, on a status or header no HTTP/1.1 response can carry. */
  writeHead(status: number, statusMessage: string | undefined, headers: OutgoingHttpHeaders): this {
    if (this.headersSent) throw new Error('the response headers were sent already');
    const all = Object.assign(Object.create(null) as OutgoingHttpHeaders, this.#preset, headers);
    checkHead(status, statusMessage, all);
    this.headersSent = true;
    this.#resolveHead({ status, statusMessage, headers: all, body: this.#body() });
    return this;
  }

  /** Nothing to do: the edge hands the head on as soon as it is written. */
  flushHeaders(): void {}

  write(chunk: Buffer): boolean {
    if (this.writableEnded || this.destroyed) return false;
    this.#queue.push(chunk);
    this.#queued += chunk.length;
    this.#wakeUp();
    if (this.#queued < EDGE_HIGH_WATER_MARK_BYTES) return true;
    this.#needDrain = true;
    return false;
  }

  end(chunk?: Buffer | (() => void), cb?: () => void): this {
    if (this.writableEnded || this.destroyed) return this;
    if (!this.headersSent) this.writeHead(200, undefined, {});
    if (typeof chunk === 'function') cb = chunk;
    else if (chunk !== undefined) this.write(chunk);
    this.writableEnded = true;
    this.#onFinished = cb;
    this.#wakeUp();
    return this;
  }

  /** Cuts the response off: the body throws on its next pull. */
  destroy(): this {
    if (this.destroyed) return this;
    this.destroyed = true;
    this.#queue.length = 0;
    this.#queued = 0;
    this.#wakeUp();
    this.emit('close');
    return this;
  }

  async *#body(): AsyncGenerator<Uint8Array> {
    try {
      for (;;) {
        if (this.destroyed) throw new Error('the response was cut off before its end');
        const chunk = this.#queue.shift();
        if (chunk !== undefined) {
          this.#pulled(chunk.length);
          yield chunk;
          continue;
        }
        if (this.writableEnded) return this.#finish();
        await new Promise<void>((resolve) => {
          this.#wake = resolve;
        });
      }
    } finally {
      // A reader that stops pulling before the end is a client gone away.
      if (!this.writableFinished) this.destroy();
    }
  }

  #pulled(bytes: number): void {
    this.#queued -= bytes;
    if (!this.#needDrain || this.#queued > 0) return;
    this.#needDrain = false;
    this.emit('drain');
  }

  // The client has pulled the last byte: the response is complete.
  #finish(): void {
    this.writableFinished = true;
    this.#onFinished?.();
    this.emit('close');
  }

  #wakeUp(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}

function checkHead(status: number, statusMessage: string | undefined, headers: OutgoingHttpHeaders): void {
  if (!Number.isInteger(status) || status < 100 || status > 999) throw new RangeError(`invalid status code: ${status}`);
  if (statusMessage !== undefined && INVALID_HEADER_CHAR.test(statusMessage)) throw new TypeError('invalid character in the reason phrase');
  for (const name of Object.keys(headers)) {
    validateHeaderName(name);
    const value = headers[name];
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) validateHeaderValue(name, String(one));
  }
}
