/**
 * The upstream's response, relayed to the client as it arrives (status line, headers minus
 * hop-by-hop ones, the body chunk by chunk, compressed bytes untouched) with a copy into the usage
 * tap; or, when the caller asked to hold its status back and the body is small, collected whole
 * and handed back instead (overflow-retry.ts).
 */
import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { decideStreamHead } from '../core/index.js';
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

  #relayHead(): boolean {
    const { x, res } = this;
    const clientRes = x.args.clientRes;
    try {
      clientRes.writeHead(this.#status, res.statusMessage, this.#headers);
      // Send the status line and headers now, not with the first body chunk: the client's
      // stream handling starts on headers, and an SSE body may take a while to begin.
      clientRes.flushHeaders();
    } catch (err) {
      const what = `upstream ${x.origin} sent a response that cannot be relayed`;
      x.fail({ code: 'UPSTREAM_BAD_RESPONSE', status: 502, message: `${what}: ${errorText(err)}` });
      return false;
    }
    x.facts.status = this.#status;
    return true;
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
    x.facts.bytesOut += chunk.length;
    const flushed = x.args.clientRes.write(chunk);
    this.#tap.write(chunk); // after the client's write: the copy never holds up the original
    if (!flushed) this.#waitForDrain();
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

  // Backpressure: stop reading the upstream while the client's buffer is full, so memory stays
  // bounded by high-water marks, not the response size. A slow reader is not a silent upstream,
  // so the idle clock stops meanwhile.
  #waitForDrain(): void {
    const x = this.x;
    this.res.pause();
    x.stopIdle();
    x.args.clientRes.once('drain', () => {
      if (x.done) return;
      x.armIdle();
      this.res.resume();
    });
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
      x.facts.bytesOut += bytes.length;
      x.args.clientRes.write(bytes);
      this.#tap.write(bytes);
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
      .finally(() => x.args.clientRes.end(() => x.finish()));
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
