/**
 * The Anthropic Messages API (`POST /v1/messages`, and `/v1/messages/count_tokens`): Claude Code's,
 * and the default everywhere (an error on a path no dialect claims is written in its shape).
 */
import { outwardMessage } from '../../errors.js';
import { decideContextWindow } from '../context-window.js';
import { effectiveCompactWindow } from '../client-compaction.js';
import { conversationKeyOf, firstPromptExcerpt } from '../conversation-key.js';
import { detectRefaults } from '../detect-refaults.js';
import { findFirstMessage } from '../first-message.js';
import { modelOfRequest } from '../head-model.js';
import type { Sha256 } from '../ports.js';
import { readPromptTooLong } from '../prompt-too-long.js';
import { readNewestToolCalls, readToolCalls } from '../read-tool-calls.js';
import { readMessagesFacts } from '../shed/message-facts.js';
import { messagesPartSites } from '../part-sites.js';
import { indexTranscript } from '../messages/transcript-index.js';
import type { ApiDialect, DialectRequest, KeyInput, KeyLookup, ShapedError, WindowSettings } from './dialect.js';
import { MESSAGES_USAGE } from './messages-usage.js';
import { assistantMessages } from './model-calls.js';

/** The Messages API. */
export const MESSAGES_API: ApiDialect = {
  name: 'messages',
  routes: [
    { route: 'messages', matches: (pathname) => pathname === '/v1/messages', readsFullness: true },
    { route: 'count_tokens', matches: (pathname) => pathname === '/v1/messages/count_tokens', readsFullness: false },
  ],
  ownsPath: (pathname) => pathname.startsWith('/v1/messages'),
  index: indexTranscript,
  supports: { spans: true, thinking: true, modelLabels: true, keyFromHead: true, websocket: false, streamedRefusal: false },
  // core/conversation-key.ts says why the session id is part of the key.
  sessionHeader: 'x-claude-code-session-id',
  key: messagesKey,
  window: messagesWindow,
  requestClass: () => undefined, // Claude Code names its class in a header (core/request-class.ts)
  usage: MESSAGES_USAGE,
  errorBody: messagesErrorText,
  tooLong: readPromptTooLong,
  calls: readToolCalls,
  messageFacts: readMessagesFacts,
  newestCalls: readNewestToolCalls,
  refaults: detectRefaults,
  firstPrompt: (body, index) => firstPromptExcerpt(body, index),
  modelCalls: assistantMessages,
  partSites: messagesPartSites,
};

/**
 * A Messages call is named by its first message alone, found without indexing the rest, so most
 * requests of conversations without epochs go through with no full index.
 */
function messagesKey(body: Uint8Array, input: KeyInput, sha256: Sha256): KeyLookup {
  const first = findFirstMessage(body);
  if (first === null) return { kind: 'none', reason: 'no_epoch', detail: 'no messages' };
  if (first !== undefined) {
    try {
      const make = (): string => conversationKeyOf(body, first, input.agentId, sha256, input.sessionId);
      return { kind: 'found', key: input.keys === undefined ? make() : input.keys.keyOf(body, first, input, sha256, make) };
    } catch {
      // the first message is not valid JSON: the full index names the reason
    }
  }
  const indexed = indexTranscript(body);
  return indexed.kind === 'failed'
    ? { kind: 'none', reason: indexed.reason, detail: indexed.detail }
    : { kind: 'none', reason: 'not_messages_body', detail: 'first message unreadable' };
}

/**
 * The model's window (the body's last `model`), else the `context-1m` beta's, else 200,000; no
 * more than `CLAUDE_CODE_AUTO_COMPACT_WINDOW`, where Claude Code compacts.
 */
function messagesWindow(request: DialectRequest, settings: WindowSettings): number {
  const beta = request.headers['anthropic-beta'];
  return effectiveCompactWindow(decideContextWindow({ model: modelOfRequest(request), betas: beta }), settings.autoCompactWindow);
}

/**
 * `{"type":"error","error":{"type":...,"message":...}}`, the shape the API and its SDKs parse, so
 * the client reports (and retries) a proxy failure like any other API error. The message leaves
 * the program here, so it says ctxshed (once).
 */
function messagesErrorText(error: ShapedError): string {
  return JSON.stringify({ type: 'error', error: { type: error.anthropicType, message: outwardMessage(error.message) } });
}
