/**
 * The OpenAI APIs' refusal of a request over the model's context: a 400 whose body is
 * `{"error":{"message":"...","type":"invalid_request_error","param":"input"|"messages",
 * "code":"context_length_exceeded"}}` (docs/openai.md, "Rescue on overflow"). Chat Completions
 * names both counts in its message ("This model's maximum context length is 128000 tokens.
 * However, your messages resulted in 130532 tokens."); the Responses API names none ("Your input
 * exceeds the context window of this model."), so its refusal carries no count and the caller
 * estimates one (core/estimate-overflow.ts). Pure: the body's text in, numbers out.
 */
import { isRecord } from '../../errors.js';
import type { TooLongRefusal } from '../prompt-too-long.js';

/** The error code both APIs give a request over the context window. */
export const CONTEXT_LENGTH_EXCEEDED = 'context_length_exceeded';

// "maximum context length is 128000 tokens"
const LIMIT = /maximum context length is\s*(\d[\d,]*)\s*tokens?/i;
// "your messages resulted in 130532 tokens", or the older "you requested 4128 tokens (2128 in the
// messages, 2000 in the completion)": the first count is the one the limit was held against.
const TOKENS = /(?:resulted in|requested)\s*(?:about\s*)?(\d[\d,]*)\s*tokens?/i;

/** The refusal in an OpenAI error body that says the request is over the context; undefined for anything else. */
export function readContextLengthExceeded(text: string): TooLongRefusal | undefined {
  const error = openAiError(text);
  if (error === undefined || error['code'] !== CONTEXT_LENGTH_EXCEEDED) return undefined;
  const message = typeof error['message'] === 'string' ? error['message'] : '';
  const tokens = toCount(TOKENS.exec(message)?.[1]);
  const limit = toCount(LIMIT.exec(message)?.[1]);
  return { ...(tokens === undefined ? {} : { tokens }), ...(limit === undefined ? {} : { limit }) };
}

function openAiError(text: string): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const error = isRecord(value) ? value['error'] : undefined;
  return isRecord(error) ? error : undefined;
}

function toCount(digits: string | undefined): number | undefined {
  if (digits === undefined) return undefined;
  const n = Number(digits.replaceAll(',', ''));
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}
