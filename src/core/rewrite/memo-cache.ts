/**
 * The rewrite memos of all conversations, bounded: at most one per conversation, a cap on their
 * total size (least recently used go first), and none older than an idle limit. The edge passes
 * the time in, in milliseconds; the core reads no clock.
 */
import type { RewriteMemo } from './rewrite-memo.js';

/** Total size all memos may hold (a 4 MB body's memo is about 7 MB: input, output, indexes). */
export const DEFAULT_MEMO_CAP_BYTES = 64 * 1024 * 1024;
/** A conversation unused this long loses its memo (its next request pays one full rewrite). */
export const DEFAULT_MEMO_IDLE_MS = 10 * 60 * 1000;

/** How much the cache may hold. */
export interface MemoLimits {
  readonly capBytes: number;
  readonly idleMs: number;
}

/** The limits the engine uses unless told otherwise. */
export const DEFAULT_MEMO_LIMITS: MemoLimits = { capBytes: DEFAULT_MEMO_CAP_BYTES, idleMs: DEFAULT_MEMO_IDLE_MS };

interface Held<M> {
  readonly memo: M;
  usedAt: number;
}

/**
 * One memo per conversation key, within the limits: the rewrite's (the default), or any other
 * that states its size (core/eligible-blocks.ts's).
 */
export class MemoCache<M extends { readonly bytes: number } = RewriteMemo> {
  // A Map iterates in insertion order; each use re-inserts, so the first entry is the least
  // recently used one.
  readonly #held = new Map<string, Held<M>>();
  #bytes = 0;

  constructor(readonly limits: MemoLimits = DEFAULT_MEMO_LIMITS) {}

  /** The conversation's memo, if it has one that is not idle; counts as a use. */
  get(key: string, nowMs: number): M | undefined {
    const held = this.#held.get(key);
    if (held === undefined) return undefined;
    if (this.#isIdle(held, nowMs)) {
      this.delete(key);
      return undefined;
    }
    this.#held.delete(key);
    held.usedAt = nowMs;
    this.#held.set(key, held);
    return held.memo;
  }

  /** Keeps `memo` as the conversation's only memo, dropping the least recently used past the cap. */
  set(key: string, memo: M, nowMs: number): void {
    this.delete(key);
    if (memo.bytes > this.limits.capBytes) return; // bigger than everything allowed: not kept
    this.#held.set(key, { memo, usedAt: nowMs });
    this.#bytes += memo.bytes;
    for (const [oldest, held] of this.#held) {
      if (this.#bytes <= this.limits.capBytes) break;
      this.#held.delete(oldest);
      this.#bytes -= held.memo.bytes;
    }
  }

  /**
   * Forgets the conversation's memo (a new epoch makes it useless); with `only`, only if the memo
   * held is still that one (a request running alongside may have kept a newer one meanwhile).
   */
  delete(key: string, only?: M): void {
    const held = this.#held.get(key);
    if (held === undefined || (only !== undefined && held.memo !== only)) return;
    this.#held.delete(key);
    this.#bytes -= held.memo.bytes;
  }

  /** Drops every memo idle for `idleMs` or longer; returns how many. */
  prune(nowMs: number): number {
    let dropped = 0;
    for (const [key, held] of this.#held) {
      if (!this.#isIdle(held, nowMs)) continue;
      this.delete(key);
      dropped++;
    }
    return dropped;
  }

  /** Memos held. */
  get size(): number {
    return this.#held.size;
  }

  /** Their total estimated size, in bytes. */
  get bytes(): number {
    return this.#bytes;
  }

  #isIdle(held: Held<M>, nowMs: number): boolean {
    return nowMs - held.usedAt >= this.limits.idleMs;
  }
}
