/**
 * The upstream's response, relayed to the client as it arrives (status line, headers minus
 * hop-by-hop ones, the body chunk by chunk, compressed bytes untouched) with a copy into the usage
 * tap: the reply's body is a `Readable` fed from the upstream's chunks as they come, the upstream
 * paused while the client's side is full (backpressure, no hop per chunk); or, when the caller
 * asked to hold its status back and the body is small, collected whole and handed back instead
 * (overflow-retry.ts).
 */
import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { decideStreamHead } from '../core/index.js';
import { Readable } from 'node:stream';
import { errorText } from '../errors.js';
import type { ForwardArgs } from './forward-types.js';
import { forwardableHeaders } from './hop-by-hop.js';
import type { UpstreamExchange } from './upstream-exchange.js';
import { runHook } from './upstream-exchange.js';
import { createUsageTap, type UsageTap } from './usage-tap.js';

/** Relays `res`, the response to the request of `x`. */
export function relayResponse(x: UpstreamExchange, res: IncomingMessage): void {
  if (x.done) {
    res.resume();
    return;
  }
  x.headersArrived();
  new ResponseRelay(x, res).start();
}

/** Bytes the reply's body holds unread before the upstream is paused. */
export const RELAY_HIGH_WATER_MARK_BYTES = 64 * 1024;

/** One response on its way: held back, or streamed with backpressure. */
class ResponseRelay {
  readonly #status: number;
  readonly #headers: OutgoingHttpHeaders;
  readonly #tap: UsageTap;
  /** The body collected so far while held back; undefined once (or if never) relayed. */
  #held: Buffer[] | undefined;
  #heldBytes = 0;
  /** A Responses stream's head, held until its first event after the head events (stream-head.ts). */
  #head: Buffer[] | undefined;
  /** The body the client reads, once relayed. */
  #body: Readable | undefined;
  /** The upstream is paused until the client reads more. */
  #paused = false;
  /** The body's announced length, when its last chunk waits for the shared reading (`holdEndForUsage`). */
  readonly #holdLastAt: number | undefined;
  /** That last chunk, relayed after the reading is written. */
  #last: Buffer | undefined;

  constructor(
    readonly x: UpstreamExchange,
    readonly res: IncomingMessage,
  ) {
    this.#status = res.statusCode ?? 502; // always set on a client-side response
    const args = x.args;
    this.#tap = createUsageTap({ api: args.api, contentType: res.headers['content-type'], contentEncoding: res.headers['content-encoding'] });
    x.facts.tap = this.#tap;
    // The body passes through byte for byte, so the upstream's content-length stays true.
    this.#headers = forwardableHeaders(res.rawHeaders, { keepContentLength: true });
    // A held-back response is collected whole; one that turns out large is relayed after all.
    this.#held = holdsBack(args, this.#status, res.headers) ? [] : undefined;
    this.#head = holdsStreamHead(args, this.#status, res.headers) ? [] : undefined;
    const length = Number(res.headers['content-length']);
    this.#holdLastAt = args.holdEndForUsage === true && Number.isSafeInteger(length) && length > 0 ? length : undefined;
  }

  start(): void {
    runHook(() => this.x.args.onResponseStart?.(this.#status, this.res.headers));
    if (this.#held === undefined && this.#head === undefined && !this.#relayHead()) return;
    this.x.armIdle();
    this.res.on('data', (chunk: Buffer) => this.#onData(chunk));
    this.res.on('end', () => this.#onEnd());
    this.res.on('error', (err) => this.#onBroken(err));
    this.res.on('close', () => this.#onBroken());
  }

  // The status line and headers go to the client now, not with the first body chunk: the client's
  // stream handling starts on headers, and an SSE body may take a while to begin.
  #relayHead(): boolean {
    const { x, res } = this;
    const body = new Readable({
      highWaterMark: RELAY_HIGH_WATER_MARK_BYTES,
      read: () => this.#onRead(),
      destroy: (err, callback) => {
        // Destroyed before its end: the client went away, or the exchange failed (already done).
        if (!body.readableEnded) x.onClientClose();
        callback(err);
      },
    });
    let answered: boolean;
    try {
      answered = x.args.reply.answer({ status: this.#status, statusMessage: res.statusMessage, headers: this.#headers, body });
    } catch (err) {
      const what = `upstream ${x.origin} sent a response that cannot be relayed`;
      x.fail({ code: 'UPSTREAM_BAD_RESPONSE', status: 502, message: `${what}: ${errorText(err)}` });
      return false;
    }
    if (!answered) {
      x.onClientClose();
      return false;
    }
    // The client has read the last byte: the exchange is over.
    body.once('end', () => x.finish());
    this.#body = body;
    x.facts.status = this.#status;
    return true;
  }

  /** Hands the client `chunk`, pausing the upstream while the client's side is full. */
  #relay(chunk: Buffer): void {
    if (this.#holdLastAt !== undefined && this.x.facts.bytesOut + chunk.length >= this.#holdLastAt) {
      // The body's last bytes: the client has the response when they arrive, so they wait for the reading (#onEnd).
      this.#last = chunk;
      this.#tap.write(chunk);
      return;
    }
    this.x.facts.bytesOut += chunk.length;
    const more = this.#body!.push(chunk);
    this.#tap.write(chunk); // after the client's copy: the tap never holds up the original
    if (more || this.#paused) return;
    // Backpressure: memory stays bounded by high-water marks, not the response size. A slow
    // reader is not a silent upstream, so the idle clock stops meanwhile.
    this.#paused = true;
    this.res.pause();
    this.x.stopIdle();
  }

  #onRead(): void {
    if (!this.#paused || this.x.done) return;
    this.#paused = false;
    this.x.armIdle();
    this.res.resume();
  }

  #onData(chunk: Buffer): void {
    const x = this.x;
    if (x.done) return;
    x.refreshIdle();
    if (this.#head !== undefined) {
      const released = this.#holdHead(chunk);
      if (released === undefined) return;
      chunk = released;
    }
    if (this.#held !== undefined) {
      this.#held.push(chunk);
      this.#heldBytes += chunk.length;
      if (this.#heldBytes <= (x.args.holdBack?.maxBytes ?? 0)) return;
      chunk = Buffer.concat(this.#held);
      this.#held = undefined;
      if (!this.#relayHead()) return;
    }
    this.#relay(chunk);
  }

  /**
   * Holds `chunk` with the stream's head. Undefined while the head is still held (or turned out to
   * be a refusal, now held whole as a held-back response is); else the head's bytes to relay, after
   * its status line and headers went out.
   */
  #holdHead(chunk: Buffer): Buffer | undefined {
    const head = this.#head!;
    head.push(chunk);
    this.#heldBytes += chunk.length;
    const bytes = Buffer.concat(head);
    const decision = decideStreamHead(bytes.toString('utf8'));
    if (decision === 'failed') {
      this.#held = head; // the rest is collected; one that turns out large is relayed after all
      this.#head = undefined;
      return undefined;
    }
    if (decision === 'wait' && this.#heldBytes <= (this.x.args.holdBack?.maxBytes ?? 0)) return undefined;
    this.#head = undefined;
    this.#heldBytes = 0;
    return this.#relayHead() ? bytes : undefined;
  }

  #onEnd(): void {
    const x = this.x;
    if (x.done) return;
    x.stopIdle();
    if (this.#head !== undefined) {
      // The stream ended before its head decided anything: it goes to the client as it came.
      const bytes = Buffer.concat(this.#head);
      this.#head = undefined;
      if (!this.#relayHead()) return;
      this.#relay(bytes);
    }
    if (this.#held !== undefined) {
      x.facts.held = { status: this.#status, statusMessage: this.res.statusMessage, headers: this.#headers, body: Buffer.concat(this.#held) };
      x.finish();
      return;
    }
    // Read the usage before the client sees the end: a client that sends its next request the
    // moment this one ends is then judged on this response's reading, never on the one before.
    void this.#tap
      .end()
      .then((usage) => x.reportUsage(usage))
      .finally(() => {
        const last = this.#last;
        this.#last = undefined;
        if (last !== undefined && this.#body !== undefined) {
          x.facts.bytesOut += last.length;
          this.#body.push(last);
        }
        this.#body?.push(null);
      });
  }

  #onBroken(err?: Error): void {
    const x = this.x;
    if (x.done || this.res.complete) return;
    const detail = err === undefined ? 'connection closed' : err.message;
    x.fail({ code: 'UPSTREAM_ABORTED', status: 502, message: `upstream ${x.origin} broke off the response: ${detail}` });
  }
}

// Only a body whose announced length fits is collected; a chunked one is checked as it comes.
function holdsBack(args: ForwardArgs, status: number, headers: IncomingHttpHeaders): boolean {
  const hold = args.holdBack;
  if (hold === undefined || status !== hold.status) return false;
  const length = headers['content-length'];
  return length === undefined || Number(length) <= hold.maxBytes;
}

/** A 200 event stream of a caller that asked for its head (a Responses request that may be rescued), uncompressed. */
function holdsStreamHead(args: ForwardArgs, status: number, headers: IncomingHttpHeaders): boolean {
  if (args.holdBack?.streamHead !== true || status !== 200) return false;
  const type = headers['content-type'] ?? '';
  const coding = headers['content-encoding'];
  return type.toLowerCase().startsWith('text/event-stream') && (coding === undefined || coding.toLowerCase() === 'identity');
}
