/**
 * A conversation's last usage reading (docs/design.md "Fullness"), and what the decisions read of
 * it: its fullness, and its tokens per byte for estimating what a block would free. Pure.
 */

/** Tokens per byte of request body, until a reading gives the conversation's own ratio. */
export const DEFAULT_TOKENS_PER_BYTE = 0.25;

/** The last usage reading of a conversation. */
export interface FullnessReading {
  /** input + cache creation + cache read tokens. */
  readonly contextTokens: number;
  readonly window: number;
  /** How many epochs the measured request carried. */
  readonly epochsApplied: number;
  /** Bytes of the measured request as sent upstream (for the tokens-per-byte estimate). */
  readonly requestBytes: number;
}

/** The conversation's tokens per body byte, from its last reading. */
export function tokensPerByteOf(reading: FullnessReading): number {
  return reading.requestBytes > 0 ? reading.contextTokens / reading.requestBytes : DEFAULT_TOKENS_PER_BYTE;
}

/** The reading's fullness: its context over its window. */
export function fullnessOf(reading: FullnessReading): number {
  return reading.window > 0 ? reading.contextTokens / reading.window : 0;
}
