/**
 * The conversation a request belongs to, by its API's key (docs/design.md "Conversation"). A Messages
 * call is named by its first message alone, found without indexing the rest, so most requests of
 * conversations without epochs go through with no full index. An OpenAI call is named by its
 * leading items and `prompt_cache_key` (core/openai/conversation-key.ts), which takes the index:
 * it is handed on, so the rewrite does not index twice.
 */
import {
  conversationKeyOf,
  findFirstMessage,
  indexTranscript,
  openAiConversationKey,
  isOpenAiIndex,
  type ApiDialect,
  type PassthroughReason,
  type TranscriptIndex,
} from '../core/index.js';
import { sha256Hex } from '../state/sha256-hex.js';
import type { RequestMeta } from './request-meta.js';

/** The key, with the body's index when finding it took one; or why the request goes through as it is. */
export type KeyLookup =
  | { readonly kind: 'found'; readonly key: string; readonly index?: TranscriptIndex }
  | { readonly kind: 'none'; readonly reason: PassthroughReason; readonly detail: string };

/** Finds the request's conversation key. Never throws. */
export function conversationKeyFor(body: Uint8Array, api: ApiDialect, meta: RequestMeta): KeyLookup {
  return api.supports.keyFromHead ? messagesKey(body, meta) : openAiKey(body, api, meta);
}

function messagesKey(body: Uint8Array, meta: RequestMeta): KeyLookup {
  const first = findFirstMessage(body);
  if (first === null) return { kind: 'none', reason: 'no_epoch', detail: 'no messages' };
  if (first !== undefined) {
    try {
      return { kind: 'found', key: conversationKeyOf(body, first, meta.agentId, sha256Hex, meta.sessionId) };
    } catch {
      // the first message is not valid JSON: the full index names the reason
    }
  }
  const indexed = indexTranscript(body);
  return indexed.kind === 'failed'
    ? { kind: 'none', reason: indexed.reason, detail: indexed.detail }
    : { kind: 'none', reason: 'not_messages_body', detail: 'first message unreadable' };
}

function openAiKey(body: Uint8Array, api: ApiDialect, meta: RequestMeta): KeyLookup {
  const indexed = api.index(body);
  if (indexed.kind === 'failed') return { kind: 'none', reason: indexed.reason, detail: indexed.detail };
  const { index } = indexed;
  if (!isOpenAiIndex(index)) return { kind: 'none', reason: 'not_messages_body', detail: 'no key from the head' };
  if (index.messages.length === 0 && body[index.messagesSpan.start] !== 0x22) return { kind: 'none', reason: 'no_epoch', detail: 'no input items' };
  const key = openAiConversationKey(body, index, api.name, sha256Hex, meta.sessionId);
  return key === undefined ? { kind: 'none', reason: 'not_messages_body', detail: 'first items unreadable' } : { kind: 'found', key, index };
}
