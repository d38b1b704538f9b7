/**
 * The Messages API's usage, read from a copy of its response (pure: the proxy's usage tap parses
 * the bytes and hands values in). SSE: `message_start` usage, merged with `message_delta` usage,
 * later values winning. JSON: top-level `usage` and `model`. Both: the thinking blocks the API
 * dropped (`input_transformations`: top level in JSON, `message_start`'s message in SSE).
 */
import { countThinkingDropped, type ThinkingDropped } from '../thinking/thinking-dropped.js';
import type { SseEvent } from '../sse-parser.js';
import type { Usage } from '../usage.js';
import type { DialectUsage, StreamError, UsageEvents, UsageNote } from './dialect.js';

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

/** `message` covers an unnamed event whose JSON `type` says what it is. */
const SSE_EVENTS_READ: ReadonlySet<string> = new Set(['message_start', 'message_delta', 'error', 'message']);

/** The Messages dialect's usage readers. */
export const MESSAGES_USAGE: DialectUsage = { json: readMessagesJsonUsage, events: createMessagesUsageEvents };

/** A Messages reply: top-level `usage` and `model`, and the thinking blocks the API dropped. */
export function readMessagesJsonUsage(body: unknown): UsageNote {
  const record = asRecord(body);
  const dropped = countThinkingDropped(record?.['input_transformations']);
  const usage = asRecord(record?.['usage']);
  const model = record?.['model'];
  // count_tokens, an error body: no usage to read
  const reading = usage === undefined ? undefined : toUsage({ fields: mergeUsage(emptyFields(), usage), ...(typeof model === 'string' ? { model } : {}) });
  return { ...(reading === undefined ? {} : { usage: reading }), ...(dropped === undefined ? {} : { thinkingDropped: dropped }) };
}

/** A reader of a Messages stream's events. */
export function createMessagesUsageEvents(): UsageEvents {
  let reading: UsageReading | undefined;
  let streamError: StreamError | undefined;
  let thinkingDropped: ThinkingDropped | undefined;
  const take = (event: SseEvent): string | undefined => {
    // Named events are checked before any JSON.parse: most of a stream is content deltas.
    if (!SSE_EVENTS_READ.has(event.event)) return undefined;
    const data = parseRecord(event.data);
    if (data === undefined) return event.event === 'message' ? undefined : `${event.event} event data is not a JSON object`;
    const type = typeof data['type'] === 'string' ? data['type'] : event.event;
    if (type === 'message_start') {
      const message = asRecord(data['message']);
      // The docs put a stream's input_transformations on message_start's message.
      thinkingDropped = countThinkingDropped(message?.['input_transformations']) ?? thinkingDropped;
      const usage = asRecord(message?.['usage']);
      if (usage === undefined) return undefined;
      const model = message?.['model'];
      reading = { fields: mergeUsage(emptyFields(), usage), ...(typeof model === 'string' ? { model } : {}) };
    } else if (type === 'message_delta') {
      const usage = asRecord(data['usage']);
      if (usage !== undefined) reading = { ...reading, fields: mergeUsage(reading?.fields ?? emptyFields(), usage) };
    } else if (type === 'error') {
      streamError = streamErrorOf(asRecord(data['error']));
    }
    return undefined;
  };
  const read = (): UsageNote => ({
    ...(reading === undefined ? {} : { usage: toUsage(reading) }),
    ...(streamError === undefined ? {} : { streamError }),
    ...(thinkingDropped === undefined ? {} : { thinkingDropped }),
  });
  return { take, read };
}

function streamErrorOf(error: Record<string, unknown> | undefined): StreamError {
  const errorType = error?.['type'];
  const message = error?.['message'];
  return { type: typeof errorType === 'string' ? errorType : 'unknown', message: typeof message === 'string' ? message : '' };
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
