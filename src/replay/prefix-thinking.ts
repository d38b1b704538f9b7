/**
 * What the thinking prefix check (docs/rescue.md "Preserved thinking") does to the strategies
 * that rewrite each request afresh (per-request rewriting, server-side `clear_tool_uses`) on a
 * `--prefix-check` replay: a thinking block is valid only while everything before it is as it was
 * when the model produced it. Each of those strategies changes the tool results it stubs from one
 * request to the next, so a block whose earlier stubs changed since it was produced fails the
 * check, and would have to go (as ctxshed's epochs remove the ones they invalidate). Counted, per
 * conversation and strategy; the bodies priced are not changed. Pure.
 */
import type { ApiMessage } from './rebuild-conversations.js';

/** Follows one conversation under one strategy, request by request. */
export class PrefixThinking {
  /** Per assistant message with thinking: the stubs before it when the model produced it. */
  readonly #producedWith = new Map<number, string>();
  #lastStubbed: ReadonlySet<string> = new Set();

  /**
   * One request: its messages and the tool results this strategy stubbed (or cleared) in it.
   * Returns how many of its thinking blocks fail the prefix check.
   */
  invalidThinking(messages: readonly ApiMessage[], stubbed: ReadonlySet<string>): number {
    const at = toolResultPlaces(messages);
    let invalid = 0;
    for (const [k, m] of messages.entries()) {
      const blocks = m.role === 'assistant' ? thinkingBlocks(m) : 0;
      if (blocks === 0) continue;
      // Produced in answer to the request before, on the stubs it sent (all of them lie before k).
      if (!this.#producedWith.has(k)) this.#producedWith.set(k, keyBefore(this.#lastStubbed, at, k));
      if (this.#producedWith.get(k) !== keyBefore(stubbed, at, k)) invalid += blocks;
    }
    this.#lastStubbed = stubbed;
    return invalid;
  }
}

/** The ids stubbed before message `k`, as one key. */
function keyBefore(stubbed: ReadonlySet<string>, at: ReadonlyMap<string, number>, k: number): string {
  return [...stubbed]
    .filter((id) => (at.get(id) ?? Number.POSITIVE_INFINITY) < k)
    .sort()
    .join(',');
}

/** Each tool result's message index, by its tool_use_id. */
function toolResultPlaces(messages: readonly ApiMessage[]): Map<string, number> {
  const at = new Map<string, number>();
  for (const [i, m] of messages.entries()) {
    for (const b of m.content) if (isBlock(b, 'tool_result')) at.set(String(b['tool_use_id']), i);
  }
  return at;
}

function thinkingBlocks(m: ApiMessage): number {
  return m.content.filter((b) => isBlock(b, 'thinking') || isBlock(b, 'redacted_thinking')).length;
}

function isBlock(b: unknown, type: string): b is Record<string, unknown> {
  return typeof b === 'object' && b !== null && (b as Record<string, unknown>)['type'] === type;
}
