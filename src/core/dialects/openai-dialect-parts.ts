/**
 * What the two OpenAI dialects (core/dialects/responses.ts, chat.ts) share: the key of their
 * leading items, the window Codex measures against, the session header Codex sends, the OpenAI
 * error shape, and the readers of calls, refaults and refusals.
 */
import { outwardMessage } from '../../errors.js';
import { detectShellRefaults } from '../detect-refaults.js';
import type { ApiName, DialectRequest, KeyInput, KeyLookup, ShapedError } from './dialect.js';
import { DEFAULT_CONTEXT_WINDOW } from '../context-window.js';
import { modelOfRequest } from '../head-model.js';
import type { Sha256 } from '../ports.js';
import type { IndexOutcome } from '../transcript-index-types.js';
import { readContextLengthExceeded } from '../openai/context-length-exceeded.js';
import { openAiConversationKey, openAiFirstPrompt } from '../openai/conversation-key.js';
import { codexReleaseOf, openAiModelWindow } from '../openai/model-windows.js';
import { isOpenAiIndex } from '../openai/openai-index.js';
import { readNewestOpenAiCalls, readOpenAiCalls } from '../openai/read-openai-calls.js';
import { readItemFacts } from '../shed/message-facts.js';
import { modelItemRuns } from './model-calls.js';

/** The request header Codex names its thread with (0.169.0 on: `session-id`). */
export const CODEX_SESSION_HEADER = 'session-id';

/**
 * The conversation key of an OpenAI request: its leading items and `prompt_cache_key`
 * (conversation-key.ts), which takes the index; it is handed on, so the rewrite does not index twice.
 */
export function openAiKeyLookup(name: ApiName, indexed: IndexOutcome, body: Uint8Array, input: KeyInput, sha256: Sha256): KeyLookup {
  if (indexed.kind === 'failed') return { kind: 'none', reason: indexed.reason, detail: indexed.detail };
  const { index } = indexed;
  if (!isOpenAiIndex(index)) return { kind: 'none', reason: 'not_messages_body', detail: 'no key from the head' };
  if (index.messages.length === 0 && body[index.messagesSpan.start] !== 0x22) return { kind: 'none', reason: 'no_epoch', detail: 'no input items' };
  const key = openAiConversationKey(body, index, name, sha256, input.sessionId);
  return key === undefined ? { kind: 'none', reason: 'not_messages_body', detail: 'first items unreadable' } : { kind: 'found', key, index };
}

/** The window: the model's as the sending Codex release lists it (model-windows.ts); one it does not list, 200,000. */
export function openAiWindow(request: DialectRequest): number {
  const model = modelOfRequest(request);
  const release = codexReleaseOf(firstValue(request.headers['user-agent']));
  return (model === undefined ? undefined : openAiModelWindow(model, release)) ?? DEFAULT_CONTEXT_WINDOW;
}

/** `{"error":{"message","type","param","code"}}`, the OpenAI APIs' shape, which their SDKs and Codex parse. */
export function openAiErrorText(error: ShapedError): string {
  return JSON.stringify({ error: { message: outwardMessage(error.message), type: error.openAiType, param: null, code: error.code } });
}

// What neither OpenAI API supports, and why (docs/openai.md, "What each API supports"): no
// thinking blocks are sent back; the classifier speaks the Messages API; a conversation's key
// takes its index.
const OPENAI_SUPPORTS = { spans: false, thinking: false, modelLabels: false, keyFromHead: false, websocket: false, streamedRefusal: false } as const;

/**
 * What both OpenAI dialects read alike: a call after the person's last message is the current turn's
 * (a turn spans many items); a read-back is a shell command or code naming the elided file; each
 * item (or chat message) is its own message to shed mode and the working set (`readItemFacts`); a
 * model call is a run of the model's items (`modelItemRuns`).
 */
export const OPENAI_PARTS = {
  supports: OPENAI_SUPPORTS,
  sessionHeader: CODEX_SESSION_HEADER,
  window: openAiWindow,
  errorBody: openAiErrorText,
  tooLong: readContextLengthExceeded,
  calls: readOpenAiCalls,
  messageFacts: readItemFacts,
  newestCalls: readNewestOpenAiCalls,
  refaults: detectShellRefaults,
  firstPrompt: openAiFirstPrompt,
  modelCalls: modelItemRuns,
} as const;

/** A header's first value; repeated headers arrive as an array. */
export function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
