/**
 * The closed list of reasons a request goes upstream unchanged (docs/design.md invariant 7). Each one
 * is documented in docs/reasons.md; the wire log and `stats` count them by these names.
 */
export const PASSTHROUGH_REASONS = {
  no_epoch: 'The conversation has no epoch yet: nothing to elide (the normal case below the threshold).',
  not_json: 'The body is not valid JSON (or nests deeper than 512 levels).',
  not_messages_body:
    'The body is JSON but not a request of its API: not an object, no "messages" array (Messages, chat) or "input" (Responses), or a message without role or content.',
  duplicate_key:
    'A key that decides meaning ("messages", "model", "role", "content", "type", "tool_use_id", ...) appears twice; parsers disagree on which wins, so ctxshed does not guess.',
  unknown_shape:
    'A message, item or content block has a shape ctxshed does not know (content neither string nor array, a block or item without type, a tool result without a string id, a Responses body that keeps its transcript upstream with previous_response_id).',
  epoch_mismatch:
    'The conversation has epochs, but none of their blocks is found at its ordinal with its tool_use_id and sha256 (the transcript was edited, rewound or compacted).',
  elided_file_missing: 'An elided file a stub would name is missing or unreadable, so no stub may name it.',
  span_file_missing: "A shed span's files (<state>/spans/<sha256>.json and .md) are missing, so no stub may name them.",
  self_check_failed: "The rewritten body failed the rewrite's own check of its output (invariant 6); the original is sent.",
  encoded_body: 'The request body has a content-encoding; ctxshed rewrites only plain JSON bodies.',
  not_a_model_call: 'The request is not a POST to /v1/messages, /v1/messages/count_tokens, .../responses or .../chat/completions.',
  state_unavailable: 'The state directory could not be read or written; requests pass through and no epoch latches until it can.',
  store_unavailable: 'The Postgres store (--store) could not be reached; requests pass through untouched and no epoch latches until it can.',
  internal_error: 'An unexpected error in ctxshed; the original is sent and the error is recorded.',
  side_call:
    "A side call (Claude Code's request class auxiliary or side_reply) of a conversation without epochs: it never becomes a conversation of its own, never latches and gives no reading.",
  previous_response_foreign:
    'A response.create message of a Responses WebSocket whose previous_response_id does not name the response last completed on that socket: ctxshed cannot rebuild its whole input, so it is forwarded as sent and the upstream answers it.',
} as const;

/** Why a request went upstream unchanged. */
export type PassthroughReason = keyof typeof PASSTHROUGH_REASONS;

/** Why one frozen block was left alone in a request that was otherwise rewritten. */
export type BlockSkipReason = 'missing_block' | 'id_mismatch' | 'hash_mismatch' | 'file_missing';
