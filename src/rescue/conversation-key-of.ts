/**
 * The conversation a request belongs to, by its dialect's key (docs/design.md "Conversation";
 * core/dialects/): the hash the dialect names, with this process's SHA-256.
 */
import type { ApiDialect, KeyLookup, KeyMemo } from '../core/index.js';
import { sha256Hex } from '../state/sha256-hex.js';
import type { RequestHead } from './request-meta.js';

export type { KeyLookup } from '../core/index.js';

/** Finds the request's conversation key, from `keys` when made before (core/key-memo.ts). Never throws. */
export function conversationKeyFor(body: Uint8Array, api: ApiDialect, meta: RequestHead, keys?: KeyMemo): KeyLookup {
  return api.key(body, keys === undefined ? meta : { ...meta, keys }, sha256Hex);
}
