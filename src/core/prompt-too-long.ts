/**
 * The API's refusal of a prompt over the model's context: a 400 whose body is
 * `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 215000
 * tokens > 200000 maximum"},"request_id":"req_..."}`. Its token count is the reading an overflow
 * epoch latches on (docs/rescue.md, "Rescue on overflow"). Pure: the body's text in, numbers out.
 */
import { readInvalidRequestMessage } from './invalid-request-message.js';

/** What the API said of a prompt it refused as too long. */
export interface OverflowReading {
  /**
   * The prompt's tokens as the API counted them; or, when `estimated`, as ctxshed estimated them
   * because the refusal named no count (core/estimate-overflow.ts).
   */
  readonly tokens: number;
  /** The maximum it named, when it named one. */
  readonly limit?: number;
  /** The refusal named no count: `tokens` is ctxshed's estimate. */
  readonly estimated?: true;
}

/** A refusal as too long as an API words it: the counts it names, when it names them. */
export interface TooLongRefusal {
  readonly tokens?: number;
  readonly limit?: number;
}

// The wording is the API's own; clients (Claude Code among them) match it the same way.
const TOO_LONG = /prompt is too long/i;
const COUNTS = /(\d[\d,]*)\s*tokens?\s*(?:>\s*(\d[\d,]*)\s*(?:tokens?\s*)?maximum)?/i;

/** The reading in an API error body that says the prompt is too long; undefined for anything else. */
export function readPromptTooLong(text: string): OverflowReading | undefined {
  const message = readInvalidRequestMessage(text);
  if (message === undefined || !TOO_LONG.test(message)) return undefined;
  const counts = COUNTS.exec(message.slice(message.search(TOO_LONG)));
  const tokens = toCount(counts?.[1]);
  if (tokens === undefined) return undefined; // no count, no reading to latch on
  const limit = toCount(counts?.[2]);
  return limit === undefined ? { tokens } : { tokens, limit };
}

function toCount(digits: string | undefined): number | undefined {
  if (digits === undefined) return undefined;
  const n = Number(digits.replaceAll(',', ''));
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}
