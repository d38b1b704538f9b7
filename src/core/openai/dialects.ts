/** The OpenAI APIs as dialects of the shared core (see api-dialect.ts). */
import type { ApiDialect } from '../api-dialect.js';
import { indexChat } from './chat-index.js';
import { indexResponses } from './responses-index.js';

/** The Responses API (`POST /v1/responses`): what Codex speaks. */
export const RESPONSES_API: ApiDialect = { name: 'responses', index: indexResponses };

/** Chat Completions (`POST /v1/chat/completions`). */
export const CHAT_API: ApiDialect = { name: 'chat', index: indexChat };
