/** The OpenAI APIs as dialects of the shared core (see api-dialect.ts). */
import type { ApiDialect } from '../api-dialect.js';
import { detectShellRefaults } from '../detect-refaults.js';
import { indexChat } from './chat-index.js';
import { readContextLengthExceeded } from './context-length-exceeded.js';
import { openAiFirstPrompt } from './conversation-key.js';
import { readNewestOpenAiCalls, readOpenAiCalls } from './read-openai-calls.js';
import { indexResponses } from './responses-index.js';

// What neither OpenAI API supports, and why (docs/openai.md, "What each API supports"): no
// thinking blocks are sent back; the classifier speaks the Messages API; a conversation's key
// takes its index. Spans: the Responses API's pairs are planned around (core/shed/responses-facts.ts);
// chat's are not, so chat has none (docs/openai.md, "Shed mode").
const OPENAI_SUPPORTS = { spans: false, thinking: false, modelLabels: false, keyFromHead: false } as const;

// What both OpenAI APIs read alike: a call after the person's last message is the current turn's
// (a turn spans many items); a read-back is a shell command or code naming the elided file.
const OPENAI_READERS = {
  supports: OPENAI_SUPPORTS,
  tooLong: readContextLengthExceeded,
  calls: readOpenAiCalls,
  newestCalls: readNewestOpenAiCalls,
  refaults: detectShellRefaults,
  firstPrompt: (body: Uint8Array, index: Parameters<typeof openAiFirstPrompt>[1]) => openAiFirstPrompt(body, index),
} as const;

/** The Responses API (`POST /v1/responses`): what Codex speaks. */
export const RESPONSES_API: ApiDialect = { name: 'responses', index: indexResponses, ...OPENAI_READERS, supports: { ...OPENAI_SUPPORTS, spans: true } };

/** Chat Completions (`POST /v1/chat/completions`). */
export const CHAT_API: ApiDialect = { name: 'chat', index: indexChat, ...OPENAI_READERS };
