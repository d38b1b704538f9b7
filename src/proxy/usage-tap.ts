/** Reads the token usage out of a copy of a response, without ever holding up the response. */
import { contentCoding, openDecompressor, type Decompressor } from './copy-decompressor.js';
import { dialectNamed, type ApiName, type DialectUsage, type StreamError, type UsageNote } from '../core/dialects/index.js';
import { createSseParser } from '../core/sse-parser.js';
import type { ThinkingDropped } from '../core/thinking/thinking-dropped.js';
import type { Usage } from '../core/usage.js';
import { errorText } from '../errors.js';

export type { Usage } from '../core/usage.js';
export type { StreamError } from '../core/dialects/index.js';

/** A JSON body larger than this is not buffered for its usage (a Messages reply is far smaller). */
export const MAX_JSON_COPY_BYTES = 64 * 1024 * 1024;
/** An SSE event still incomplete after this many characters stops the reading of the stream. */
export const MAX_SSE_PENDING_CHARS = 16 * 1024 * 1024;

/** What `createUsageTap` needs to know of the response. */
export interface UsageTapOptions {
  /** The API of the request the response answers: how its usage is written. Messages by default. */
  readonly api?: ApiName | undefined;
  readonly contentType?: string | undefined;
  readonly contentEncoding?: string | undefined;
  readonly maxJsonBytes?: number;
  readonly maxSsePendingChars?: number;
}

/** A sink for a copy of the response bytes. Never throws. */
export interface UsageTap {
  /** Takes the next chunk of the (possibly compressed) copy. */
  write(chunk: Buffer): void;
  /**
   * The usage seen, once the copy is fully read. A promise because zlib's streaming decoders
   * are asynchronous. An SSE stream gives what it carried up to where it ended or broke; a
   * JSON body that cannot be read gives undefined.
   */
  end(): Promise<Usage | undefined>;
  /** Why the copy could not be read, or only in part. Absent when all went well. */
  error?: string;
  /** The API's own `event: error`, when the stream carried one. */
  streamError?: StreamError;
  /** The thinking blocks the API dropped, from the response's `input_transformations`; absent: none. */
  thinkingDropped?: ThinkingDropped;
}

interface BodyReader {
  push(bytes: Uint8Array): void;
  finish(broken: boolean): Usage | undefined;
}

/**
 * A tap for one response: SSE or JSON, read by the request's dialect (core/dialects/: its usage,
 * an error the stream carried, the thinking blocks the API dropped), decompressing its copy when
 * the response is gzip, deflate or br. Other content types are ignored: `end()` gives undefined.
 * The stream plumbing is here; the reading of values is the dialect's, pure.
 */
export function createUsageTap(opts: UsageTapOptions): UsageTap {
  let broken = false;
  let ended: Promise<Usage | undefined> | undefined;
  const tap: UsageTap = {
    write(chunk: Buffer): void {
      if (ended !== undefined || broken || reader === undefined) return;
      try {
        if (decompressor === undefined) reader.push(chunk);
        else decompressor.write(chunk);
      } catch (err) {
        fail(`usage tap failed: ${errorText(err)}`);
      }
    },
    end(): Promise<Usage | undefined> {
      ended ??= finish();
      return ended;
    },
  };
  const fail = (reason: string): void => {
    tap.error ??= reason;
    broken = true;
  };

  const reader = readerFor(opts, tap, fail);
  let decompressor: Decompressor | undefined;
  if (reader !== undefined) {
    const coding = contentCoding(opts.contentEncoding);
    if (coding === 'unsupported') fail(`unsupported content-encoding: ${opts.contentEncoding ?? ''}`);
    else if (coding !== undefined) {
      decompressor = openDecompressor(
        coding,
        (bytes) => {
          if (broken) return;
          try {
            reader.push(bytes);
          } catch (err) {
            fail(`usage tap failed: ${errorText(err)}`);
          }
        },
        (err) => fail(`could not decompress the ${coding} copy: ${errorText(err)}`),
      );
    }
  }

  async function finish(): Promise<Usage | undefined> {
    if (reader === undefined) return undefined;
    try {
      if (decompressor !== undefined) await decompressor.end();
      return reader.finish(broken);
    } catch (err) {
      fail(`usage tap failed: ${errorText(err)}`);
      return undefined;
    }
  }

  return tap;
}

/** The reader of the response's content type and API; undefined for a body that carries no usage. */
function readerFor(opts: UsageTapOptions, tap: UsageTap, fail: (reason: string) => void): BodyReader | undefined {
  const kind = bodyKind(opts.contentType);
  const usage = dialectNamed(opts.api ?? 'messages').usage;
  if (kind === 'sse') return createSseReader(usage, opts.maxSsePendingChars ?? MAX_SSE_PENDING_CHARS, tap, fail);
  if (kind === 'json') return createJsonReader(usage, opts.maxJsonBytes ?? MAX_JSON_COPY_BYTES, tap, fail);
  return undefined;
}

/** What a dialect's reader said, onto the tap (read once the copy is fully read: `end()`). */
function noteOnTap(tap: UsageTap, note: UsageNote): Usage | undefined {
  if (note.streamError !== undefined) tap.streamError = note.streamError;
  if (note.thinkingDropped !== undefined) tap.thinkingDropped = note.thinkingDropped;
  return note.usage;
}

function createSseReader(usage: DialectUsage, maxPending: number, tap: UsageTap, fail: (reason: string) => void): BodyReader {
  const parser = createSseParser();
  const events = usage.events();
  let stopped = false;
  return {
    push(bytes: Uint8Array): void {
      for (const event of parser.push(bytes)) {
        if (stopped) return;
        const failure = events.take(event);
        if (failure !== undefined) {
          stopped = true;
          fail(failure);
        }
      }
      if (parser.pendingChars > maxPending) fail(`an SSE event grew over ${maxPending} characters; the rest of the stream was not read`);
    },
    finish: () => noteOnTap(tap, events.read()),
  };
}

function createJsonReader(usage: DialectUsage, maxBytes: number, tap: UsageTap, fail: (reason: string) => void): BodyReader {
  let parts: Uint8Array[] = [];
  let size = 0;
  let over = false;
  return {
    push(bytes: Uint8Array): void {
      if (over) return;
      size += bytes.length;
      if (size > maxBytes) {
        over = true;
        parts = [];
        fail(`JSON body over ${maxBytes} bytes; its usage was not read`);
        return;
      }
      parts.push(bytes);
    },
    finish(broken: boolean): Usage | undefined {
      if (broken || over || size === 0) return undefined;
      let body: unknown;
      try {
        body = JSON.parse(new TextDecoder('utf-8').decode(Buffer.concat(parts)));
      } catch (err) {
        fail(`JSON body could not be parsed: ${errorText(err)}`);
        return undefined;
      }
      return noteOnTap(tap, usage.json(body));
    },
  };
}

function bodyKind(contentType: string | undefined): 'sse' | 'json' | undefined {
  const mediaType = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (mediaType === 'text/event-stream') return 'sse';
  if (mediaType === 'application/json' || mediaType.endsWith('+json')) return 'json';
  return undefined;
}
