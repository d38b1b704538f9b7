/**
 * The usage an OpenAI API reports for one request, read from parsed JSON: a whole response body,
 * or one SSE event's data. Pure; the proxy's usage tap parses the bytes and hands values in.
 *
 * Both APIs count cached tokens inside the input total (`input_tokens` / `prompt_tokens`), unlike
 * the Messages API, which reports cache reads and writes beside `input_tokens`: a captured reply
 * reads `"input_tokens":12033,"input_tokens_details":{"cached_tokens":11904}`. So the context a
 * request filled is the input total alone.
 */
import { isRecord } from '../../errors.js';

/** One OpenAI usage reading; a field the API left out is 0. */
export interface OpenAiUsage {
  /** The tokens of the prompt as the model saw it: the fullness reading's contextTokens. */
  readonly contextTokens: number;
  /** Of those, read from the provider's prompt cache. */
  readonly cachedTokens: number;
  readonly outputTokens: number;
  readonly model?: string;
}

/** Stream events whose `response` carries the final usage (the request was read either way). */
const FINAL_EVENTS = new Set(['response.completed', 'response.incomplete', 'response.failed']);

/**
 * Usage from a Responses API value: a `response` object (the JSON body of a non-streamed call),
 * or a `response.completed` / `.incomplete` / `.failed` stream event. `undefined` for any other
 * value, or when `usage.input_tokens` is not a count.
 */
export function readResponsesUsage(value: unknown): OpenAiUsage | undefined {
  if (!isRecord(value)) return undefined;
  let response: unknown;
  if (typeof value['type'] === 'string') response = FINAL_EVENTS.has(value['type']) ? value['response'] : undefined;
  else response = value['object'] === 'response' ? value : undefined;
  if (!isRecord(response) || !isRecord(response['usage'])) return undefined;
  const usage = response['usage'];
  const details = usage['input_tokens_details'];
  return reading(usage['input_tokens'], isRecord(details) ? details['cached_tokens'] : undefined, usage['output_tokens'], response['model']);
}

/**
 * Usage from a Chat Completions value: a `chat.completion` body, or the last chunk of a stream
 * sent with `stream_options.include_usage` (other chunks carry `usage: null`: `undefined`).
 */
export function readChatUsage(value: unknown): OpenAiUsage | undefined {
  if (!isRecord(value) || !isRecord(value['usage'])) return undefined;
  const usage = value['usage'];
  const details = usage['prompt_tokens_details'];
  return reading(usage['prompt_tokens'], isRecord(details) ? details['cached_tokens'] : undefined, usage['completion_tokens'], value['model']);
}

/** An SSE event's data as JSON; `undefined` for `[DONE]` or anything else that is not JSON. Never throws. */
export function parseEventData(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return undefined;
  }
}

function reading(input: unknown, cached: unknown, output: unknown, model: unknown): OpenAiUsage | undefined {
  if (!isCount(input)) return undefined;
  const base = { contextTokens: input, cachedTokens: isCount(cached) ? Math.min(cached, input) : 0, outputTokens: isCount(output) ? output : 0 };
  return typeof model === 'string' ? { ...base, model } : base;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}
