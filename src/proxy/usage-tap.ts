/** Reads the token usage out of a copy of a response, without ever holding up the response. */
import { contentCoding, openDecompressor, type Decompressor } from './copy-decompressor.js';
import { createOpenAiSseReader, readOpenAiJsonUsage } from './openai-usage-readers.js';
import { createSseParser } from '../core/sse-parser.js';
import type { ApiName } from '../core/api-dialect.js';
import type { Usage } from '../core/usage.js';

export type { Usage } from '../core/usage.js';
import type { SseEvent } from '../core/sse-parser.js';
import { countThinkingDropped, type ThinkingDropped } from '../core/thinking/thinking-dropped.js';
import { errorText } from '../errors.js';

/** A JSON body larger than this is not buffered for its usage (a Messages reply is far smaller). */
export const MAX_JSON_COPY_BYTES = 64 * 1024 * 1024;
/** An SSE event still incomplete after this many characters stops the reading of the stream. */
export const MAX_SSE_PENDING_CHARS = 16 * 1024 * 1024;

/** An `event: error` the API sent mid-stream (e.g. `overloaded_error`). */
export interface StreamError {
  readonly type: string;
  readonly message: string;
}

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

interface UsageFields {
  inputTokens: number;
  cacheCreationInputTokens: number;
  cacheReadInputTokens: number;
  outputTokens: number;
  ephemeral5m?: number;
  ephemeral1h?: number;
}

interface UsageReading {
  fields: UsageFields;
  model?: string;
}

interface BodyReader {
  push(bytes: Uint8Array): void;
  finish(broken: boolean): Usage | undefined;
}

/**
 * A tap for one response: SSE (`message_start` usage, merged with `message_delta` usage, later
 * values winning) or JSON (top-level `usage` and `model`), with the thinking blocks the API
 * dropped (`input_transformations`: top level in JSON, `message_start`'s message in SSE), decompressing its copy when the
 * response is gzip, deflate or br. Other content types are ignored: `end()` gives undefined.
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
  const api = opts.api ?? 'messages';
  const maxPending = opts.maxSsePendingChars ?? MAX_SSE_PENDING_CHARS;
  if (kind === 'sse') {
    return USAGE_READERS[api].sse(maxPending, tap, fail);
  }
  if (kind === 'json') return createJsonUsageReader(opts.maxJsonBytes ?? MAX_JSON_COPY_BYTES, fail, api, tap);
  return undefined;
}

function createSseUsageReader(maxPending: number, tap: UsageTap, fail: (reason: string) => void): BodyReader {
  const parser = createSseParser();
  let reading: UsageReading | undefined;
  const onEvent = (event: SseEvent): void => {
    // Named events are checked before any JSON.parse: most of a stream is content deltas.
    if (!SSE_EVENTS_READ.has(event.event)) return;
    const data = parseRecord(event.data);
    if (data === undefined) {
      if (event.event !== 'message') fail(`${event.event} event data is not a JSON object`);
      return;
    }
    const type = typeof data['type'] === 'string' ? data['type'] : event.event;
    if (type === 'message_start') {
      const message = asRecord(data['message']);
      // The docs put a stream's input_transformations on message_start's message.
      noteDropped(tap, message?.['input_transformations']);
      const usage = asRecord(message?.['usage']);
      if (usage === undefined) return;
      const model = message?.['model'];
      reading = { fields: mergeUsage(emptyFields(), usage), ...(typeof model === 'string' ? { model } : {}) };
    } else if (type === 'message_delta') {
      const usage = asRecord(data['usage']);
      if (usage === undefined) return;
      const fields = mergeUsage(reading?.fields ?? emptyFields(), usage);
      reading = { ...reading, fields };
    } else if (type === 'error') {
      const error = asRecord(data['error']);
      const errorType = error?.['type'];
      const message = error?.['message'];
      tap.streamError = {
        type: typeof errorType === 'string' ? errorType : 'unknown',
        message: typeof message === 'string' ? message : '',
      };
    }
  };
  return {
    push(bytes: Uint8Array): void {
      for (const event of parser.push(bytes)) onEvent(event);
      if (parser.pendingChars > maxPending) {
        fail(`an SSE event grew over ${maxPending} characters; the rest of the stream was not read`);
      }
    },
    finish: () => (reading === undefined ? undefined : toUsage(reading)),
  };
}

/** `message` covers an unnamed event whose JSON `type` says what it is. */
const SSE_EVENTS_READ: ReadonlySet<string> = new Set(['message_start', 'message_delta', 'error', 'message']);

function createJsonUsageReader(maxBytes: number, fail: (reason: string) => void, api: ApiName, tap: UsageTap): BodyReader {
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
      return USAGE_READERS[api].json(body, tap);
    },
  };
}

/** How each API writes its usage: the stream's reader, and the reader of a JSON body. */
interface UsageReaders {
  readonly sse: (maxPending: number, tap: UsageTap, fail: (reason: string) => void) => BodyReader;
  readonly json: (body: unknown, tap: UsageTap) => Usage | undefined;
}

// One entry per API (core/api-dialect.ts), so no check asks which API it is.
const USAGE_READERS: Readonly<Record<ApiName, UsageReaders>> = {
  messages: { sse: (maxPending, tap, fail) => createSseUsageReader(maxPending, tap, fail), json: readMessagesJsonUsage },
  responses: openAiReaders('responses'),
  chat: openAiReaders('chat'),
};

function openAiReaders(api: 'responses' | 'chat'): UsageReaders {
  return {
    sse: (maxPending, tap, fail) => createOpenAiSseReader(api, maxPending, (e) => (tap.streamError = e), fail),
    json: (body) => readOpenAiJsonUsage(api, body),
  };
}

// A Messages reply: top-level `usage` and `model`, and the thinking blocks the API dropped.
function readMessagesJsonUsage(body: unknown, tap: UsageTap): Usage | undefined {
  const record = asRecord(body);
  noteDropped(tap, record?.['input_transformations']);
  const usage = asRecord(record?.['usage']);
  if (usage === undefined) return undefined; // count_tokens, an error body: no usage to read
  const model = record?.['model'];
  return toUsage({ fields: mergeUsage(emptyFields(), usage), ...(typeof model === 'string' ? { model } : {}) });
}

function noteDropped(tap: UsageTap, transformations: unknown): void {
  const dropped = countThinkingDropped(transformations);
  if (dropped !== undefined) tap.thinkingDropped = dropped;
}

function bodyKind(contentType: string | undefined): 'sse' | 'json' | undefined {
  const mediaType = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (mediaType === 'text/event-stream') return 'sse';
  if (mediaType === 'application/json' || mediaType.endsWith('+json')) return 'json';
  return undefined;
}

function emptyFields(): UsageFields {
  return { inputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0, outputTokens: 0 };
}

/** Overlays the API's snake_case usage on `base`; only finite numbers count (a delta may send null). */
function mergeUsage(base: UsageFields, raw: Record<string, unknown>): UsageFields {
  const out: UsageFields = { ...base };
  const take = (key: string): number | undefined => {
    const value = raw[key];
    return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
  };
  out.inputTokens = take('input_tokens') ?? out.inputTokens;
  out.cacheCreationInputTokens = take('cache_creation_input_tokens') ?? out.cacheCreationInputTokens;
  out.cacheReadInputTokens = take('cache_read_input_tokens') ?? out.cacheReadInputTokens;
  out.outputTokens = take('output_tokens') ?? out.outputTokens;
  const split = asRecord(raw['cache_creation']);
  const m5 = split?.['ephemeral_5m_input_tokens'];
  const h1 = split?.['ephemeral_1h_input_tokens'];
  if (typeof m5 === 'number' && Number.isFinite(m5)) out.ephemeral5m = m5;
  if (typeof h1 === 'number' && Number.isFinite(h1)) out.ephemeral1h = h1;
  return out;
}

function toUsage(reading: UsageReading): Usage {
  const { ephemeral5m, ephemeral1h, ...tokens } = reading.fields;
  const split = {
    ...(ephemeral5m === undefined ? {} : { ephemeral5m }),
    ...(ephemeral1h === undefined ? {} : { ephemeral1h }),
  };
  return {
    ...tokens,
    ...(reading.model === undefined ? {} : { model: reading.model }),
    ...(ephemeral5m === undefined && ephemeral1h === undefined ? {} : { cacheCreation: split }),
  };
}

function parseRecord(text: string): Record<string, unknown> | undefined {
  try {
    return asRecord(JSON.parse(text));
  } catch {
    return undefined;
  }
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
