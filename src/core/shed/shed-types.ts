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
   * tools are available, the MCP servers' instructions), verbatim and in order. Absent when none.
   */
  readonly notices?: readonly string[];
  /** A one-line excerpt of the person's first prompt, present when that prompt is in the span. */
  readonly tombstone?: string;
}

/** What decides the recent window a span must leave alone. */
export interface ShedPolicy {
  /** The messages holding this many newest tool results stay. */
  readonly keepToolResults: number;
  /** At least this many of the person's newest turns stay (a turn in the head counts). */
  readonly keepPersonTurns: number;
}

export const DEFAULT_KEEP_TOOL_RESULTS = 6;
export const DEFAULT_KEEP_PERSON_TURNS = 2;
export const DEFAULT_SHED_POLICY: ShedPolicy = {
  keepToolResults: DEFAULT_KEEP_TOOL_RESULTS,
  keepPersonTurns: DEFAULT_KEEP_PERSON_TURNS,
};
/**
 * Recorded with every shed epoch; bump the version when the span choice changes meaning.
 * Version 2: a span starts after the last tool load before the window, and carries the client's
 * notices (docs/shed.md).
 */
export const SHED_POLICY_NAME = 'shed-stale-middle';
export const SHED_POLICY_VERSION = 2;

/** The marker that pins a text: it is hoisted into the stub, never lost with its span. */
export const GOAL_MARKER = '[ctxshed:goal]';

/**
 * Why no span can be shed from this request (docs/reasons.md, "Why nothing is shed"). Not a
 * pass-through: the request still gets the conversation's earlier spans; no new epoch latches.
 */
export const SHED_REFUSALS = {
  too_few_messages: 'Between the head (or the last shed span) and the recent window there is no whole message to shed.',
  cached_span: 'Every span that could be shed holds a message carrying cache_control (the provider-warm part); ctxshed never drops one.',
  loaded_tool: 'Every message between the head (or the last shed span) and the recent window comes before a message that loads a deferred tool (a tool search answer holding a tool_reference): a span never takes a tool\'s load with it, so it starts after the last one.',
  split_tool_pair: 'Every boundary that could end the span would separate a tool_result from the tool_use it answers.',
  unreadable_pin: 'A text carrying the goal marker is not valid Unicode, so it cannot be hoisted verbatim; nothing is shed rather than lose it.',
  unreadable_body: 'The body could not be read as a Messages request (it does not index).',
} as const;

/** Why nothing is shed from a request. */
export type ShedRefusal = keyof typeof SHED_REFUSALS;

/** Why one frozen span was left alone in a request (docs/reasons.md, "Per-span reasons"). */
export const SPAN_SKIP_REASONS = {
  missing_span: 'The transcript no longer has messages at the span\'s ordinals (it got shorter: a rewind or an edit).',
  span_hash_mismatch: 'The messages at those ordinals are not byte for byte what the epoch froze.',
  span_boundary_changed: 'The message after the span is no longer an assistant message, so the stub would not sit where the API accepts it.',
  span_file_missing: 'The span\'s files are not in the state directory, so no stub may name them.',
  span_out_of_order: 'The span does not start after the one before it (a damaged record); it is never applied.',
} as const;

/** Why one frozen span was left alone. */
export type SpanSkipReason = keyof typeof SPAN_SKIP_REASONS;
