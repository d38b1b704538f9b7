/** Chat Completions (`POST .../chat/completions`), matched on the path's end as the Responses API is. */
import { OPENAI_PARTS, openAiKeyLookup } from './openai-dialect-parts.js';
import { CHAT_USAGE } from './openai-usage-events.js';
import { indexChat } from '../openai/chat-index.js';
import { chatPartSites } from '../openai/part-sites.js';
import type { ApiDialect } from './dialect.js';

/** Chat Completions: no spans (its pairs are not planned around; docs/openai.md, "Shed mode"). */
export const CHAT_API: ApiDialect = {
  ...OPENAI_PARTS,
  name: 'chat',
  routes: [{ route: 'chat', matches: (pathname) => pathname.endsWith('/chat/completions'), readsFullness: true }],
  ownsPath: (pathname) => pathname.endsWith('/chat/completions'),
  index: indexChat,
  key: (body, input, sha256) => openAiKeyLookup('chat', indexChat(body), body, input, sha256),
  requestClass: () => undefined,
  usage: CHAT_USAGE,
  partSites: chatPartSites,
};
