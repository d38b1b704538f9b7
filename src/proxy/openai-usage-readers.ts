/**
 * Reading the usage of an OpenAI response from the usage tap's copy (core/openai/openai-usage.ts
 * reads the values): the Responses API's `response.completed` event (or `.incomplete`,
 * `.failed`), the last chunk of a chat stream sent with `stream_options.include_usage`, or a JSON
 * body. The reading is handed on in the Messages shape the rest of the proxy keeps: uncached
 * input as `inputTokens`, cached as `cacheReadInputTokens`, so that their sum, the context,
 * is what the API reported as the input total.
 */
import { parseEventData, readChatUsage, readResponsesUsage, type OpenAiUsage, type Usage } from '../core/index.js';
import { createSseParser, type SseEvent } from '../core/sse-parser.js';
import { isRecord } from '../errors.js';

/** A reader of one response body's copy (the usage tap's BodyReader). */
export interface UsageReader {
  push(bytes: Uint8Array): void;
  finish(broken: boolean): Usage | undefined;
}

/** An error the API sent mid-stream. */
export interface OpenAiStreamError {
  readonly type: string;
  readonly message: string;
}

/** The Responses stream events that carry the final usage; the rest (deltas, mostly) are never parsed. */
const RESPONSES_USAGE_EVENTS: ReadonlySet<string> = new Set(['response.completed', 'response.incomplete', 'response.failed']);

/** An OpenAI reading in the Messages shape: the cached part of the input total is the cache read. */
export function toMessagesUsage(usage: OpenAiUsage): Usage {
  const base = {
    inputTokens: usage.contextTokens - usage.cachedTokens,
    cacheCreationInputTokens: 0,
    cacheReadInputTokens: usage.cachedTokens,
    outputTokens: usage.outputTokens,
  };
  return usage.model === undefined ? base : { ...base, model: usage.model };
}

/** The usage of a whole JSON body of `api` (a `response` object, or a `chat.completion`). */
export function readOpenAiJsonUsage(api: 'responses' | 'chat', body: unknown): Usage | undefined {
  const usage = api === 'responses' ? readResponsesUsage(body) : readChatUsage(body);
  return usage === undefined ? undefined : toMessagesUsage(usage);
}

/** A reader of an SSE body of `api`; the last usage seen wins. */
export function createOpenAiSseReader(
  api: 'responses' | 'chat',
  maxPending: number,
  onStreamError: (error: OpenAiStreamError) => void,
  fail: (reason: string) => void,
): UsageReader {
  const parser = createSseParser();
  let usage: OpenAiUsage | undefined;
  const onEvent = api === 'responses' ? onResponsesEvent : onChatEvent;
  function onResponsesEvent(event: SseEvent): void {
    if (event.event === 'error') {
      const data = parseEventData(event.data);
      onStreamError(errorOf(data, data));
      return;
    }
    if (!RESPONSES_USAGE_EVENTS.has(event.event)) return;
    usage = readResponsesUsage(parseEventData(event.data)) ?? usage;
  }
  function onChatEvent(event: SseEvent): void {
    // Chunks are unnamed and many: only one that names prompt_tokens, or an error, is parsed.
    if (event.data.includes('"error"')) {
      const data = parseEventData(event.data);
      if (isRecord(data) && isRecord(data['error'])) onStreamError(errorOf(data['error'], data['error']));
    }
    if (!event.data.includes('prompt_tokens')) return;
    usage = readChatUsage(parseEventData(event.data)) ?? usage;
  }
  return {
    push(bytes: Uint8Array): void {
      for (const event of parser.push(bytes)) onEvent(event);
      if (parser.pendingChars > maxPending) fail(`an SSE event grew over ${maxPending} characters; the rest of the stream was not read`);
    },
    finish: () => (usage === undefined ? undefined : toMessagesUsage(usage)),
  };
}

function errorOf(value: unknown, fallback: unknown): OpenAiStreamError {
  const record = isRecord(value) ? value : isRecord(fallback) ? fallback : {};
  const type = record['code'] ?? record['type'];
  const message = record['message'];
  return { type: typeof type === 'string' ? type : 'error', message: typeof message === 'string' ? message : '' };
}
