/** The OpenAI APIs as dialects of the shared core (see api-dialect.ts). */
import type { ApiDialect } from '../api-dialect.js';
import { indexChat } from './chat-index.js';
import { indexResponses } from './responses-index.js';

// What neither OpenAI API supports, and why (docs/openai.md, "What each API supports"): no
// thinking blocks are sent back; the classifier speaks the Messages API; a conversation's key
// takes its index. Spans: see docs/openai.md, "Shed mode".
const OPENAI_SUPPORTS = { spans: false, thinking: false, modelLabels: false, keyFromHead: false } as const;

/** The Responses API (`POST /v1/responses`): what Codex speaks. */
export const RESPONSES_API: ApiDialect = { name: 'responses', index: indexResponses, supports: OPENAI_SUPPORTS };

/** Chat Completions (`POST /v1/chat/completions`). */
export const CHAT_API: ApiDialect = { name: 'chat', index: indexChat, supports: OPENAI_SUPPORTS };
