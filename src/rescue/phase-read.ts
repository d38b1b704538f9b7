/**
 * A request's first phase (docs/request-path.md, steps 3a-3b'): is it a model call with a readable
 * body, whose conversation is it, what window does it run in. Either a pass-through, or what the
 * later phases read: the request's API, key, meta and the conversation's entry.
 */
import {
  dialectOf,
  hasFrozenItems,
  isSideCall,
  readsFullness,
  requestClassOfBody,
  type ApiDialect,
  type PassthroughReason,
  type TranscriptIndex,
} from '../core/index.js';
import { errorText } from '../errors.js';
import { StoreError } from '../store/index.js';
import { conversationKeyFor } from './conversation-key-of.js';
import type { ConversationEntry } from './conversation-table.js';
import type { EngineParts } from './engine-parts.js';
import type { EngineRequest, Prepared } from './engine-types.js';
import { passthroughOf, type StepFacts } from './prepared-of.js';
import { withWindow, type RequestHead, type RequestMeta } from './request-meta.js';

/** A request read: the API its route speaks, its conversation's key and entry, and its meta (the window). */
export interface ReadRequest {
  readonly kind: 'read';
  readonly api: ApiDialect;
  readonly key: string;
  /** An OpenAI body's index, made for its key; a Messages body has none yet (its key is its first message's). */
  readonly index: TranscriptIndex | undefined;
  readonly meta: RequestMeta;
  readonly entry: ConversationEntry;
}

/** A phase's answer when the request goes no further: what the engine gives back. */
export interface Done {
  readonly kind: 'done';
  readonly prepared: Prepared;
}

/** The request's bytes unchanged, with a reason from the closed list, as a phase's last word. */
export function doneWith(request: EngineRequest, meta: RequestMeta, reason: PassthroughReason, detail: string, found: StepFacts = {}): Done {
  return { kind: 'done', prepared: passthroughOf(request.body, meta, reason, detail, found) };
}

/** The read phase: a pass-through, or the request's conversation. */
export async function readRequest(parts: EngineParts, request: EngineRequest, given: RequestHead): Promise<ReadRequest | Done> {
  const { body } = request;
  // Until the conversation is known, the window is read from the whole body.
  const passEarly = (head: RequestHead, reason: PassthroughReason, detail: string): Done =>
    doneWith(request, withWindow(head, request, parts.settings), reason, detail);
  // 1. Only model calls with a readable body are ours.
  if (given.route === undefined) return passEarly(given, 'not_a_model_call', 'not a model call');
  if (given.encoding !== undefined) return passEarly(given, 'encoded_body', given.encoding);
  // 2. The conversation, by the key of the API the route speaks. A Messages call is named by
  //    its first message alone: most requests belong to one without epochs and go through
  //    without their whole body being indexed. An OpenAI call's key takes its index.
  const api = dialectOf(given.route);
  const lookup = conversationKeyFor(body, api, given, parts.keys);
  if (lookup.kind === 'none') return passEarly(given, lookup.reason, lookup.detail);
  const { key } = lookup;
  //    A Responses body that ends in compaction_trigger is a compaction request (core/openai/remote-compaction.ts).
  const requestClass = requestClassOfBody(given.requestClass, api, lookup.index);
  const head = requestClass === given.requestClass ? given : { ...given, ...(requestClass === undefined ? {} : { requestClass }) };
  //    From here the window is read from what is new since the conversation's last request.
  const meta = parts.windows.metaOf(request, head, key, api, parts.now().getTime());
  const found = await entryOf(parts, key, meta);
  if (found.kind === 'failed') return doneWith(request, meta, found.reason, found.detail, { key, stateFailed: true });
  if (found.kind === 'side_call') return doneWith(request, meta, 'side_call', `a ${String(meta.requestClass)} request of a conversation without epochs`);
  if (readsFullness(meta.route)) parts.previews.note(key, body, api, lookup.index, meta);
  return { kind: 'read', api, key, index: lookup.index, meta, entry: found.entry };
}

/**
 * The conversation's entry. A side call never makes a conversation of its own: of one without
 * epochs it gets none, and an entry made only for it is let go.
 */
async function entryOf(parts: EngineParts, key: string, meta: RequestMeta): Promise<EntryLookup> {
  const known = parts.table.has(key);
  try {
    const entry = await parts.table.get(key);
    if (!isSideCall(meta.requestClass) || hasFrozenItems(entry.items)) return { kind: 'found', entry };
    if (!known) parts.table.forget(key);
    return { kind: 'side_call' };
  } catch (error) {
    parts.onStateFailure(error);
    return {
      kind: 'failed',
      detail: errorText(error),
      reason: error instanceof StoreError && error.code === 'STORE_UNAVAILABLE' ? 'store_unavailable' : 'state_unavailable',
    };
  }
}

/** A conversation's entry as entryOf finds it. */
type EntryLookup =
  | { readonly kind: 'found'; readonly entry: ConversationEntry }
  | { readonly kind: 'side_call' }
  | { readonly kind: 'failed'; readonly detail: string; readonly reason: 'state_unavailable' | 'store_unavailable' };
