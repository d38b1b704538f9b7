/**
 * The reading an overflow epoch latches on, from a refusal as too long (docs/rescue.md, "Rescue
 * on overflow"). The Messages API and Chat Completions name the prompt's tokens; the Responses API
 * names no count at all ("Your input exceeds the context window of this model."). Then the count
 * is estimated: the conversation's last reading's tokens per byte times the bytes sent (else the
 * default ratio), and never less than the limit plus one, since the API said the request is over
 * it. The limit is the one the refusal named, else the window (docs/openai.md, "Rescue on overflow").
 */
import { DEFAULT_TOKENS_PER_BYTE } from './fullness-reading.js';
import type { OverflowReading, TooLongRefusal } from './prompt-too-long.js';

/** What the estimate may lean on besides the refusal. */
export interface OverflowEstimateInput {
  /** The window the request was measured against. */
  readonly window: number;
  /** Bytes of the refused request as it was sent. */
  readonly sentBytes: number;
  /** The conversation's last reading, when it has one: its tokens and the bytes they were counted over. */
  readonly last?: { readonly contextTokens: number; readonly requestBytes: number } | undefined;
}

/** The refusal's reading: its own count when it named one, else an estimate marked `estimated`. */
export function overflowReadingOf(refusal: TooLongRefusal, input: OverflowEstimateInput): OverflowReading {
  const limit = refusal.limit === undefined ? {} : { limit: refusal.limit };
  if (refusal.tokens !== undefined) return { tokens: refusal.tokens, ...limit };
  const { last } = input;
  const perByte = last !== undefined && last.requestBytes > 0 && last.contextTokens > 0 ? last.contextTokens / last.requestBytes : DEFAULT_TOKENS_PER_BYTE;
  const over = (refusal.limit ?? input.window) + 1;
  return { tokens: Math.max(Math.round(perByte * input.sentBytes), over), ...limit, estimated: true };
}
