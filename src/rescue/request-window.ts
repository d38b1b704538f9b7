/**
 * The window of a request of a known conversation (request-meta.ts), its body's `model` read for
 * the cost of what is new: each conversation's last walk for its `model` is kept
 * (core/head-model-memo.ts), and the walk of its next request resumes where the two bodies stop
 * agreeing, instead of scanning the whole transcript again on every turn.
 */
import { isSideCall, MemoCache, readBodyModelResumed, type ApiDialect, type MemoLimits, type ModelMemo } from '../core/index.js';
import { commonPrefixLength } from './common-prefix-length.js';
import type { EngineSettings } from './engine-settings.js';
import type { EngineRequest } from './engine-types.js';
import { withWindow, type RequestHead, type RequestMeta } from './request-meta.js';

/** The conversations' model walks, bounded as the rewrite memos are (core/rewrite/memo-cache.ts). */
export class RequestWindows {
  readonly #walks: MemoCache<ModelMemo>;

  constructor(
    readonly settings: EngineSettings,
    limits: MemoLimits,
  ) {
    this.#walks = new MemoCache<ModelMemo>(limits);
  }

  /**
   * `head` with its window, for a request of conversation `key`. Only a dialect whose key comes
   * from the body's head resumes a walk; an OpenAI body's model is read from the whole body.
   */
  metaOf(request: EngineRequest, head: RequestHead, key: string, api: ApiDialect, nowMs: number): RequestMeta {
    if (this.settings.window.given !== undefined || !api.supports.keyFromHead) return withWindow(head, request, this.settings);
    this.#walks.prune(nowMs);
    const read = readBodyModelResumed(request.body, this.#walks.get(key, nowMs), commonPrefixLength);
    // A side call's body is not its conversation's next turn: it would only push out the walk that is.
    if (read.memo !== undefined && !isSideCall(head.requestClass)) this.#walks.set(key, read.memo, nowMs);
    return withWindow(head, request, this.settings, { value: read.model });
  }

  /** Drops the walks of conversations idle past the limit. */
  prune(nowMs: number): void {
    this.#walks.prune(nowMs);
  }
}
