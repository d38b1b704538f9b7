/** The shapes of the thinking blocks an epoch removes (docs/rescue.md, "Preserved thinking"). Plain data. */

/** The two block types the prefix check binds to their prefix. */
export type ThinkingType = 'thinking' | 'redacted_thinking';

/**
 * One thinking or redacted_thinking block an epoch removes from every later request: where it
 * was and what its bytes were. Its exact bytes are in `<state>/thinking/<sha256>.json`.
 */
export interface FrozenThinking {
  /** 0-based position among all thinking and redacted_thinking blocks of `messages`, in document order. */
  readonly ordinal: number;
  /** Position of its message in `messages` (of the client's body, before any splice). */
  readonly messageIndex: number;
  /** Position of the block in its message's content. */
  readonly blockIndex: number;
  readonly type: ThinkingType;
  /** Byte length of the block object's exact JSON bytes, `{` to `}`. */
  readonly jsonBytes: number;
  /** Lowercase hex sha256 of those bytes: the file's name, and each request's check. */
  readonly sha256: string;
  /**
   * The bytes between the block before it and this one, and between this one and the block after
   * it, when they are not a bare `,` (JSON whitespace around the comma). A removal takes one of
   * them with the block; `inflate` puts it back, so the original comes back byte for byte.
   */
  readonly sepBefore?: string;
  readonly sepAfter?: string;
}

/** A block to freeze at a latch, with the bytes its file must hold. */
export interface PlannedThinking extends FrozenThinking {
  readonly bytes: Uint8Array;
}

/**
 * Why a frozen thinking block was left in a request (docs/reasons.md, "Per-thinking-block
 * reasons"). The request is otherwise rewritten as usual.
 */
export const THINKING_SKIP_REASONS = {
  thinking_missing: 'No thinking block at the frozen ordinal any more (the client dropped or rewound its thinking).',
  thinking_mismatch: 'The thinking block at that ordinal is not where, or not byte for byte what, the epoch froze.',
  thinking_file_missing: "The block's file (<state>/thinking/<sha256>.json) is missing, so it is not removed: nothing is removed that cannot be given back.",
  thinking_alone: 'Removing it would leave its message with no content, which the API refuses; it stays.',
  thinking_in_span: "The block lies inside a span a shed epoch replaces: it goes with the span's bytes, not on its own.",
} as const;

/** Why one frozen thinking block was left in a request. */
export type ThinkingSkipReason = keyof typeof THINKING_SKIP_REASONS;

/** What one frozen thinking block came to in a request. */
export type ThinkingVerdict = 'removed' | ThinkingSkipReason;
