/**
 * The answer to one request, given once (handle-request.ts): the status line, the headers and a
 * body stream, handed to the edge as a value the moment they are known. The node adapter
 * (handler.ts) pipes the body to the socket; a test reads it. Nothing here imitates node's
 * `ServerResponse`: a body is a `Readable`, with the backpressure and cut-off of any stream.
 */
import { Readable } from 'node:stream';
import { validateHeaderName, validateHeaderValue, type OutgoingHttpHeaders } from 'node:http';

/** An answer: what the edge returns, but for when the request is done. */
export interface EdgeHead {
  readonly status: number;
  /** The reason phrase the upstream sent, relayed as it was; absent: the standard one. */
  readonly statusMessage: string | undefined;
  readonly headers: OutgoingHttpHeaders;
  /**
   * The body. A relayed one is fed as the upstream sends, and only as fast as it is read
   * (backpressure); it is destroyed with an error when the response is cut off mid-way, and the
   * client must then be cut off too (RFC 9112 §8). Destroying it is the client going away.
   */
  readonly body: Readable;
}

// What node refuses in a reason phrase or header value (RFC 9110 §5.5: no CR, LF or NUL).
const INVALID_HEADER_CHAR = /[^\t\x20-\x7e\x80-\xff]/;

/** The one answer of one request, and whether its client is still there. */
export class Reply {
  /** Settles with the answer, once given. */
  readonly head: Promise<EdgeHead>;
  #resolve: (head: EdgeHead) => void = () => undefined;
  #given: EdgeHead | undefined;

  /** `signal` aborts when the client goes away (EdgeRequest.signal). */
  constructor(readonly signal?: AbortSignal) {
    this.head = new Promise((resolve) => {
      this.#resolve = resolve;
    });
  }

  /** An answer was given: a status can no longer be answered. */
  get answered(): boolean {
    return this.#given !== undefined;
  }

  /** The client went away. */
  get gone(): boolean {
    return this.signal?.aborted === true;
  }

  /**
   * Answers with `head`. False, giving nothing, when an answer was given already or the client is
   * gone. Throws, as node's `writeHead` does, on a status or header no HTTP/1.1 response can carry.
   */
  answer(head: EdgeHead): boolean {
    if (this.answered || this.gone) return false;
    checkHead(head);
    keepErrorsHandled(head.body);
    this.#given = head;
    this.#resolve(head);
    return true;
  }

  /** Answers with a whole body; as `answer`. */
  answerBytes(status: number, headers: OutgoingHttpHeaders, body: Buffer, statusMessage?: string): boolean {
    if (this.answered || this.gone) return false;
    return this.answer({ status, statusMessage, headers, body: bytesBody(body) });
  }

  /** Cuts off the answer given, mid-body: the client is cut off (RFC 9112 §8). */
  cut(why: string): void {
    const body = this.#given?.body;
    if (body !== undefined && !body.readableEnded) body.destroy(new Error(why));
  }
}

/** A body of one buffer. */
export function bytesBody(bytes: Buffer): Readable {
  const body = new Readable({ read: () => undefined });
  if (bytes.length > 0) body.push(bytes);
  body.push(null);
  return body;
}

/** A body that was cut off before its first byte. */
export function cutBody(why: string): Readable {
  const body = keepErrorsHandled(new Readable({ read: () => undefined }));
  body.destroy(new Error(why));
  return body;
}

/**
 * Gives `body` a listener for its `error` event, so a body cut off before the adapter pipes it
 * (or after the client went and nobody reads it) is never an uncaught exception, which would end
 * the proxy. What the cut means is the exchange's to record; the adapter adds its own listener to
 * cut the client off.
 */
function keepErrorsHandled(body: Readable): Readable {
  if (!body.listeners('error').includes(ignoreError)) body.on('error', ignoreError);
  return body;
}

function ignoreError(): void {
  // Recorded by whoever cut the body (upstream-exchange.ts, handle-request.ts).
}

function checkHead(head: EdgeHead): void {
  const { status, statusMessage, headers } = head;
  if (!Number.isInteger(status) || status < 100 || status > 999) throw new RangeError(`invalid status code: ${status}`);
  if (statusMessage !== undefined && INVALID_HEADER_CHAR.test(statusMessage)) throw new TypeError('invalid character in the reason phrase');
  for (const name of Object.keys(headers)) {
    validateHeaderName(name);
    const value = headers[name];
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) validateHeaderValue(name, String(one));
  }
}
