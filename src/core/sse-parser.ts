/**
 * An incremental parser for `text/event-stream` (WHATWG HTML, "Server-sent events", §9.2.6
 * "Interpreting an event stream"). Pure: no I/O, no node: imports; feed it chunks as they come.
 */

/** One dispatched event. `event` is the `event:` field, `message` when absent. */
export interface SseEvent {
  readonly event: string;
  /** The `data:` lines joined with `\n`. */
  readonly data: string;
}

/** The parser's state between chunks. */
export interface SseParser {
  /**
   * Parses one more chunk and returns the events it completed. Bytes are decoded as UTF-8 across
   * chunk boundaries; strings are taken as already decoded (do not mix the two in one stream).
   */
  push(chunk: Uint8Array | string): SseEvent[];
  /** Characters held for an event not yet complete: lets a caller cap its memory. */
  readonly pendingChars: number;
}

const LF = 10;
const CR = 13;

/**
 * A new parser. Lines end with CRLF, LF or CR (a CR at the end of one chunk and an LF at the start
 * of the next are one line end). A blank line dispatches; an event without `data:` lines is
 * dropped, and at the end of the stream a pending event is discarded, both per the spec.
 */
export function createSseParser(): SseParser {
  return new EventStreamParser();
}

/** The parser: the line being read, and the event being built from its lines. */
class EventStreamParser implements SseParser {
  // fatal: false, so invalid UTF-8 becomes U+FFFD as the spec says; a leading BOM is dropped.
  readonly #decoder = new TextDecoder('utf-8');
  #started = false;
  #line = '';
  #skipLf = false;
  #eventType = '';
  #dataLines: string[] = [];
  #dataChars = 0;

  push(chunk: Uint8Array | string): SseEvent[] {
    let text = typeof chunk === 'string' ? chunk : this.#decoder.decode(chunk, { stream: true });
    if (!this.#started && text.length > 0) {
      this.#started = true;
      if (typeof chunk === 'string' && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    const out: SseEvent[] = [];
    let start = 0;
    if (this.#skipLf && text.length > 0) {
      this.#skipLf = false;
      if (text.charCodeAt(0) === LF) start = 1;
    }
    for (let i = start; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c !== LF && c !== CR) continue;
      this.#processLine(this.#line + text.slice(start, i), out);
      this.#line = '';
      if (c === CR) {
        if (i + 1 === text.length) this.#skipLf = true;
        else if (text.charCodeAt(i + 1) === LF) i++;
      }
      start = i + 1;
    }
    this.#line += text.slice(start);
    return out;
  }

  get pendingChars(): number {
    return this.#line.length + this.#dataChars;
  }

  #processLine(text: string, out: SseEvent[]): void {
    if (text === '') {
      this.#dispatch(out);
      return;
    }
    if (text.startsWith(':')) return; // a comment, e.g. a keep-alive
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.#eventType = value;
    else if (field === 'data') {
      this.#dataLines.push(value);
      this.#dataChars += value.length + 1;
    }
    // `id` and `retry` steer reconnection, which a passive reader never does.
  }

  #dispatch(out: SseEvent[]): void {
    if (this.#dataLines.length > 0) out.push({ event: this.#eventType === '' ? 'message' : this.#eventType, data: this.#dataLines.join('\n') });
    this.#eventType = '';
    this.#dataLines = [];
    this.#dataChars = 0;
  }
}
