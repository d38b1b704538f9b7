/**
 * Server-side tool-result clearing in the manner of Anthropic's context editing
 * (`clear_tool_uses_20250919`, https://docs.claude.com/en/docs/build-with-claude/context-editing,
 * read 2026-11-30) with its defaults: when the prompt is over 100,000 input tokens, the oldest
 * tool results are replaced by a placeholder until only the 3 newest tool uses keep theirs; no
 * `clear_at_least`, tool inputs kept. The client keeps sending its full history, so this is
 * evaluated afresh on every request. Pure.
 */
import type { ApiMessage } from './rebuild-conversations.js';

export const CLEAR_TRIGGER_TOKENS = 100_000;
export const CLEAR_KEEP_TOOL_USES = 3;
/** The API's exact wording is not documented; its length (a few tokens) is what matters here. */
export const CLEAR_PLACEHOLDER = '[Tool result cleared by context management]';

const ENCODER = new TextEncoder();

/** The messages the model would see, and the tool results cleared (id and text bytes). */
export interface ClearOutcome {
  readonly messages: readonly ApiMessage[];
  readonly cleared: ReadonlyMap<string, number>;
}

/**
 * What clearing made for a conversation's earlier requests, so that each request costs what is
 * new: a message cleared as far as last time is the same object again (its bytes are made once:
 * request-body.ts), and a block's text is measured once.
 */
export class ClearingMemo {
  /** Per original message: how many of its tool results were cleared -> the message sent. */
  readonly messages = new WeakMap<ApiMessage, Map<number, ApiMessage>>();
  readonly textBytes = new WeakMap<object, number>();
}

/** Clears old tool results when `promptTokens` is over the trigger; with `memo`, reusing what it made before. */
export function clearToolUses(messages: readonly ApiMessage[], promptTokens: number, memo: ClearingMemo = new ClearingMemo()): ClearOutcome {
  if (promptTokens <= CLEAR_TRIGGER_TOKENS) return { messages, cleared: new Map() };
  let total = 0;
  for (const m of messages) for (const b of m.content) if (isToolResult(b)) total++;
  const clearBelow = total - CLEAR_KEEP_TOOL_USES;
  if (clearBelow <= 0) return { messages, cleared: new Map() };
  const cleared = new Map<string, number>();
  let ordinal = 0;
  const out = messages.map((m): ApiMessage => {
    const first = ordinal;
    let count = 0;
    for (const b of m.content) {
      if (!isToolResult(b)) continue;
      if (ordinal++ >= clearBelow) continue;
      count++;
      cleared.set(String(b['tool_use_id']), textBytesOf(b, memo));
    }
    if (count === 0) return m;
    return clearedMessage(m, clearBelow - first, count, memo);
  });
  return { messages: out, cleared };
}

/** `m` with its tool results before ordinal `clearBelow` (counted from its first) cleared: `count` of them. */
function clearedMessage(m: ApiMessage, clearBelow: number, count: number, memo: ClearingMemo): ApiMessage {
  let known = memo.messages.get(m);
  const was = known?.get(count);
  if (was !== undefined) return was;
  let ordinal = 0;
  const content = m.content.map((b) => (isToolResult(b) && ordinal++ < clearBelow ? { ...b, content: CLEAR_PLACEHOLDER } : b));
  const message: ApiMessage = { role: m.role, content };
  if (known === undefined) {
    known = new Map();
    memo.messages.set(m, known);
  }
  known.set(count, message);
  return message;
}

function textBytesOf(b: Record<string, unknown>, memo: ClearingMemo): number {
  let bytes = memo.textBytes.get(b);
  if (bytes === undefined) {
    bytes = ENCODER.encode(textOf(b['content'])).length;
    memo.textBytes.set(b, bytes);
  }
  return bytes;
}

function isToolResult(b: unknown): b is Record<string, unknown> {
  return typeof b === 'object' && b !== null && (b as Record<string, unknown>)['type'] === 'tool_result';
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((c: unknown) =>
      typeof c === 'object' && c !== null && typeof (c as Record<string, unknown>)['text'] === 'string' ? String((c as Record<string, unknown>)['text']) : '',
    )
    .join('\n');
}
