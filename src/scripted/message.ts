/**
 * The assistant message the scripted Messages API answers with, shaped like the API's `Message`
 * object (the non-streaming reply body; a stream carries the same message in pieces). Pure.
 */

/** A text block of a reply. */
export interface TextBlock {
  readonly type: 'text';
  readonly text: string;
}

/** A tool call: the client runs it and answers with a `tool_result` of the same id. */
export interface ToolUseBlock {
  readonly type: 'tool_use';
  readonly id: string;
  readonly name: string;
  readonly input: Readonly<Record<string, unknown>>;
}

/** Extended thinking; the client resends it verbatim, signature included. */
export interface ThinkingBlock {
  readonly type: 'thinking';
  readonly thinking: string;
  readonly signature: string;
}

/** A content block the scripted model can produce. */
export type ReplyBlock = TextBlock | ToolUseBlock | ThinkingBlock;

/** Why the model stopped. */
export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'pause_turn' | 'refusal';

/** A Messages API `usage`, every field the API reports for a plain model call. */
export interface Usage {
  readonly input_tokens: number;
  readonly cache_creation_input_tokens: number;
  readonly cache_read_input_tokens: number;
  readonly cache_creation: { readonly ephemeral_5m_input_tokens: number; readonly ephemeral_1h_input_tokens: number };
  readonly output_tokens: number;
  readonly service_tier: 'standard';
}

/** A complete assistant message. */
export interface AssistantMessage {
  readonly id: string;
  readonly type: 'message';
  readonly role: 'assistant';
  readonly model: string;
  readonly content: readonly ReplyBlock[];
  readonly stop_reason: StopReason;
  readonly stop_sequence: null;
  readonly usage: Usage;
  /** Present under the `thinking-binding-controls-2026-08-01` beta: the thinking blocks dropped or let through. */
  readonly input_transformations?: readonly unknown[];
}

/** The token counts a caller gives; the rest of `Usage` follows from them. */
export interface UsageCounts {
  readonly input_tokens: number;
  readonly cache_creation_input_tokens?: number;
  readonly cache_read_input_tokens?: number;
  readonly output_tokens: number;
}

/** The model the scripted API names when a caller names none. */
export const DEFAULT_MODEL = 'claude-sonnet-4-5-20250929';

let messageCounter = 0;
let toolUseCounter = 0;

/** An id shaped like the API's: prefix, `01`, then 22 more characters. Deterministic per process. */
export function apiId(prefix: string, n: number): string {
  return `${prefix}_01${String(n).padStart(22, '0')}`;
}

/** A text block. */
export function textBlock(text: string): TextBlock {
  return { type: 'text', text };
}

/** A `tool_use` block with a fresh `toolu_…` id (or the one given). */
export function toolUse(name: string, input: Readonly<Record<string, unknown>>, id?: string): ToolUseBlock {
  toolUseCounter += 1;
  return { type: 'tool_use', id: id ?? apiId('toolu', toolUseCounter), name, input };
}

/** The full `usage` for these counts: all cache writes are 5-minute ones, as the client asks. */
export function fullUsage(counts: UsageCounts): Usage {
  const cacheCreation = counts.cache_creation_input_tokens ?? 0;
  return {
    input_tokens: counts.input_tokens,
    cache_creation_input_tokens: cacheCreation,
    cache_read_input_tokens: counts.cache_read_input_tokens ?? 0,
    cache_creation: { ephemeral_5m_input_tokens: cacheCreation, ephemeral_1h_input_tokens: 0 },
    output_tokens: counts.output_tokens,
    service_tier: 'standard',
  };
}

/** A complete message; `stop_reason` is `tool_use` when the content calls a tool, else `end_turn`. */
export function assistantMessage(opts: {
  readonly content: readonly ReplyBlock[];
  readonly usage: UsageCounts;
  readonly model?: string;
  readonly stopReason?: StopReason;
  readonly id?: string;
}): AssistantMessage {
  messageCounter += 1;
  return {
    id: opts.id ?? apiId('msg', messageCounter),
    type: 'message',
    role: 'assistant',
    model: opts.model ?? DEFAULT_MODEL,
    content: opts.content,
    stop_reason: opts.stopReason ?? (opts.content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn'),
    stop_sequence: null,
    usage: fullUsage(opts.usage),
  };
}
