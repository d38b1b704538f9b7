/** The neutral index of an OpenAI request body, with what the conversation key also needs. */
import type { IndexOutcome, TranscriptIndex } from '../transcript-index-types.js';

/** A `TranscriptIndex` (so the shared plan, rewrite, inflate and self-check read it) plus `prompt_cache_key`. */
export interface OpenAiIndex extends TranscriptIndex {
  /** The top-level `prompt_cache_key`, when it is a string. */
  readonly promptCacheKey: string | undefined;
}

/** Whether an index is an OpenAI body's (it carries the body's `prompt_cache_key`, set or not). */
export function isOpenAiIndex(index: TranscriptIndex): index is OpenAiIndex {
  return 'promptCacheKey' in index;
}

/** The index of an OpenAI body, or why there is none. */
export type OpenAiIndexOutcome = { readonly kind: 'indexed'; readonly index: OpenAiIndex } | Extract<IndexOutcome, { kind: 'failed' }>;
