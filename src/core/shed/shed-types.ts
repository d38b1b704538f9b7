/**
 * The shapes shed mode is made of: the frozen span an epoch records, the policy that chooses it,
 * and the closed reasons for shedding nothing. Plain data, written by src/state, decided here.
 */

/**
 * A run of whole messages an epoch sheds: frozen by its ordinals and the sha256 of its bytes.
 * Every field the stub names is here, so the stub is a pure function of the record.
 */
export interface FrozenSpan {
  /** 0-based position in `messages` of the first shed message (never 0: the head stays). */
  readonly first: number;
  /** Position of the last shed message (inclusive). */
  readonly last: number;
  /**
   * Lowercase hex sha256 of the span's exact bytes: from the first message's `{` to the last
   * one's `}`, as they lie in the body (separators between them included). The span's handle,
   * and the name of `<state>/spans/<sha256>.json`, which holds those bytes.
   */
  readonly sha256: string;
  /** Byte length of those bytes. */
  readonly bytes: number;
  /** Every text in the span carrying the goal marker, verbatim and in order. */
  readonly pins: readonly string[];
  /**
   * The client's notices in the span that stay in force after it (isClientNotice: which deferred
   * tools are available, the MCP servers' instructions; and every text of a `role: "system"`
   * message), verbatim and in order. Absent when none.
   */
  readonly notices?: readonly string[];
  /**
   * The person's latest prompt (their texts of it, verbatim, cut at PROMPT_MAX_CHARS), present when
   * that prompt is in the span: what the model is working on stays in front of it.
   */
  readonly prompt?: string;
  /** A one-line excerpt of the person's first prompt, present when that prompt is in the span. */
  readonly tombstone?: string;
  /**
   * The pages the span's `.md` is read in with the client's Read, `[offset, limit]` each
   * (core/shed/read-pages.ts), named in the stub; absent when one Read gives it whole, and in
   * epochs from before issue 39.
   */
  readonly readPages?: ReadonlyArray<readonly [number, number]>;
}

/** A span the plan would freeze, with the bytes its files must hold. */
export interface PlannedSpan extends FrozenSpan {
  /** The span's exact bytes: the content of `<sha256>.json`. */
  readonly text: Uint8Array;
  /** Where the recent window began (for the record and the gate). */
  readonly windowStart: number;
  /** Present when the working set ended the span earlier than the recent window would have. */
  readonly cutByWorkingSet?: true;
}

/**
 * What decides the recent window a span must leave alone: a budget of tokens counted back from
 * the newest message (recent-window.ts), a fraction of the context window between a floor and a
 * ceiling. Tokens are estimated from bytes at SPAN_STUB_TOKENS_PER_BYTE, as the stub does, so the
 * window never depends on a reading.
 */
export interface ShedPolicy {
  /** The budget as a fraction of the context window. */
  readonly recentFraction: number;
  /** The budget is never less than this many tokens. */
  readonly recentFloorTokens: number;
  /** Nor more than this many. */
  readonly recentCeilingTokens: number;
}

/**
 * 4% of the window, 3,000 to 12,000 tokens (7% and 24,000 before issue 27): chosen on whole
 * sessions, where a smaller budget cost less at 200k and 1M and one that follows a 1M window cost
 * more than never compacting (docs/shed.md "The budget chosen on whole sessions").
 */
export const DEFAULT_RECENT_FRACTION = 0.04;
export const DEFAULT_RECENT_FLOOR_TOKENS = 3_000;
export const DEFAULT_RECENT_CEILING_TOKENS = 12_000;
export const DEFAULT_SHED_POLICY: ShedPolicy = {
  recentFraction: DEFAULT_RECENT_FRACTION,
  recentFloorTokens: DEFAULT_RECENT_FLOOR_TOKENS,
  recentCeilingTokens: DEFAULT_RECENT_CEILING_TOKENS,
};

/** A policy whose budget is `tokens` whatever the window (tests, and the tight plan at the window). */
export function fixedRecentBudget(tokens: number): ShedPolicy {
  return { recentFraction: 0, recentFloorTokens: tokens, recentCeilingTokens: tokens };
}

/** The recent window's budget in tokens for a context window of `window` tokens (none known: the floor). */
export function recentBudgetTokens(policy: ShedPolicy, window: number | undefined): number {
  const wanted = window === undefined || !(window > 0) ? policy.recentFloorTokens : policy.recentFraction * window;
  return Math.max(policy.recentFloorTokens, Math.min(policy.recentCeilingTokens, Math.round(wanted)));
}

/**
 * Recorded with every shed epoch; bump the version when the span choice changes meaning.
 * Version 2: a span starts after the last tool load before the window, and carries the client's
 * notices (docs/shed.md).
 * Version 3: the recent window is a token budget, not the person's last turns; a restore's answer
 * stays while recent; the client's `role: "system"` messages and the person's latest prompt are
 * carried into the stub.
 */
export const SHED_POLICY_NAME = 'shed-stale-middle';
export const SHED_POLICY_VERSION = 3;

/** The marker that pins a text: it is hoisted into the stub, never lost with its span. */
export const GOAL_MARKER = '[ctxshed:goal]';

/**
 * Why no span can be shed from this request (docs/reasons.md, "Why nothing is shed"). Not a
 * pass-through: the request still gets the conversation's earlier spans; no new epoch latches.
 */
export const SHED_REFUSALS = {
  too_few_messages: 'Between the head (or the last shed span) and the recent window there is no whole message to shed.',
  cached_span: 'Every span that could be shed holds a message carrying cache_control (the provider-warm part); ctxshed never drops one.',
  loaded_tool:
    'Every message between the head (or the last shed span) and the recent window comes before a message that loads a deferred tool (a tool search answer holding a tool_reference), or on the Responses API a compaction or additional_tools item: a span never takes one with it, so it starts after the last one.',
  split_tool_pair: 'Every boundary that could end the span would separate a tool_result from the tool_use it answers.',
  unreadable_pin: 'A text carrying the goal marker is not valid Unicode, so it cannot be hoisted verbatim; nothing is shed rather than lose it.',
  unreadable_body: 'The body could not be read as a Messages request (it does not index).',
} as const;

/** Why nothing is shed from a request. */
export type ShedRefusal = keyof typeof SHED_REFUSALS;

/**
 * Why an epoch latched near the window still leaves the request over it (docs/reasons.md, "Why a
 * shed epoch stops short of the window"). The epoch sheds what it can all the same.
 */
export const SHED_SHORT_REASONS = {
  kept_over_window:
    'Even with the recent window cut to its floor, what must stay (the system prompt and tools, the head, the earlier stubs, everything up to the last tool load, the last assistant turn and what follows it) is estimated over the window.',
} as const;

/** Why a shed epoch stops short of the window. */
export type ShedShortReason = keyof typeof SHED_SHORT_REASONS;

/** What a shed epoch latched near the window (or on an overflow) expected the request to weigh. */
export interface ShedFit {
  /** The recent window's budget the span was planned with, in tokens. */
  readonly recentTokens: number;
  /** The request's estimated tokens after the epoch. */
  readonly estimatedTokens: number;
  /** The most it may carry: the window, or the maximum a refusal named. */
  readonly limit: number;
  /** Present when the estimate is still over the limit. */
  readonly short?: ShedShortReason;
}

/** Why one frozen span was left alone in a request (docs/reasons.md, "Per-span reasons"). */
export const SPAN_SKIP_REASONS = {
  missing_span: "The transcript no longer has messages at the span's ordinals (it got shorter: a rewind or an edit).",
  span_hash_mismatch: 'The messages at those ordinals are not byte for byte what the epoch froze.',
  span_boundary_changed:
    'The message after the span is no longer an assistant message (for the Responses API, an item only the model writes), so the stub would not sit where the API accepts it.',
  span_file_missing: "The span's files are not in the state directory, so no stub may name them.",
  span_out_of_order: 'The span does not start after the one before it (a damaged record); it is never applied.',
} as const;

/** Why one frozen span was left alone. */
export type SpanSkipReason = keyof typeof SPAN_SKIP_REASONS;

/** A frozen span left alone in a request, and why. */
export interface SkippedSpan {
  readonly sha256: string;
  readonly first: number;
  readonly reason: SpanSkipReason;
}

/** What one frozen span came to in a request: shed, or left alone and why. */
export type SpanVerdict = 'shed' | SpanSkipReason;
