/**
 * The usage of an OpenAI response, read from the usage tap's copy (openai-usage.ts reads the
 * values): the Responses API's `response.completed` event (or `.incomplete`, `.failed`), the last
 * chunk of a chat stream sent with `stream_options.include_usage`, or a JSON body. The reading is
 * handed on in the Messages shape the rest of the proxy keeps: uncached input as `inputTokens`,
 * cached as `cacheReadInputTokens`, so that their sum, the context, is what the API reported as the
 * input total. Pure: the proxy parses the bytes and hands the events in.
 */
import { isRecord } from '../../errors.js';
import type { DialectUsage, StreamError, UsageEvents, UsageNote } from './dialect.js';
import type { SseEvent } from '../sse-parser.js';
import type { Usage } from '../usage.js';
import { parseEventData, readChatUsage, readResponsesUsage, type OpenAiUsage } from '../openai/openai-usage.js';

/** The Responses stream events that carry the final usage; the rest (deltas, mostly) are never parsed. */
const RESPONSES_USAGE_EVENTS: ReadonlySet<string> = new Set(['response.completed', 'response.incomplete', 'response.failed']);

/** The Responses API's usage readers. */
export const RESPONSES_USAGE: DialectUsage = {
  json: (body) => noteOf(readResponsesUsage(body), undefined),
  events: () =>
    createEvents((event, state) => {
      if (event.event === 'error') {
        const data = parseEventData(event.data);
        state.streamError = errorOf(data);
        return;
      }
      if (!RESPONSES_USAGE_EVENTS.has(event.event)) return;
      state.usage = readResponsesUsage(parseEventData(event.data)) ?? state.usage;
    }),
};

/** Chat Completions' usage readers. */
export const CHAT_USAGE: DialectUsage = {
  json: (body) => noteOf(readChatUsage(body), undefined),
  events: () =>
    createEvents((event, state) => {
      // Chunks are unnamed and many: only one that names prompt_tokens, or an error, is parsed.
      if (event.data.includes('"error"')) {
        const data = parseEventData(event.data);
        if (isRecord(data) && isRecord(data['error'])) state.streamError = errorOf(data['error']);
      }
      if (!event.data.includes('prompt_tokens')) return;
      state.usage = readChatUsage(parseEventData(event.data)) ?? state.usage;
    }),
};

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

interface EventsState {
  usage: OpenAiUsage | undefined;
  streamError: StreamError | undefined;
}

function createEvents(onEvent: (event: SseEvent, state: EventsState) => void): UsageEvents {
  const state: EventsState = { usage: undefined, streamError: undefined };
  return {
    take(event: SseEvent): string | undefined {
      onEvent(event, state);
      return undefined;
    },
    read: () => noteOf(state.usage, state.streamError),
  };
}

function noteOf(usage: OpenAiUsage | undefined, streamError: StreamError | undefined): UsageNote {
  return { ...(usage === undefined ? {} : { usage: toMessagesUsage(usage) }), ...(streamError === undefined ? {} : { streamError }) };
}

function errorOf(value: unknown): StreamError {
  const record = isRecord(value) ? value : {};
  const type = record['code'] ?? record['type'];
  const message = record['message'];
  return { type: typeof type === 'string' ? type : 'error', message: typeof message === 'string' ? message : '' };
}
