/**
 * Conversation keys already made, by the raw bytes of the first message they were made from
 * (conversation-key.ts). Making a key parses the first message, puts it in canonical form and
 * serializes it again: Claude Code's first message is its reminders and project context, some
 * kilobytes, and every request of a conversation sends the same bytes. Hashing those bytes is
 * native and cheap; the same bytes, agent and session always make the same key, so a key found
 * here is the one the long way makes.
 */
import type { Sha256 } from './ports.js';
import type { Span } from './transcript-index-types.js';

/** Keys kept before the memo starts over (a few hundred bytes each). */
export const KEY_MEMO_ENTRIES = 1024;

/** One process's keys, by the hash of their first message's bytes, the agent and the session. */
export class KeyMemo {
  readonly #keys = new Map<string, string>();

  /** The key of `first` in `body` with these headers: the one kept, or `make`'s, kept for next time. */
  keyOf(
    body: Uint8Array,
    first: Span,
    input: { readonly agentId: string | undefined; readonly sessionId: string | undefined },
    sha256: Sha256,
    make: () => string,
  ): string {
    const raw = JSON.stringify([sha256(body.subarray(first.start, first.end)), input.agentId ?? null, input.sessionId ?? null]);
    const kept = this.#keys.get(raw);
    if (kept !== undefined) return kept;
    const key = make(); // may throw: nothing is kept then
    if (this.#keys.size >= KEY_MEMO_ENTRIES) this.#keys.clear();
    this.#keys.set(raw, key);
    return key;
  }
}
