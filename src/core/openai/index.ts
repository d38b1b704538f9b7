/** The OpenAI APIs (Responses, Chat Completions) over the shared core. */
export * from './openai-index.js';
export * from './responses-index.js';
export * from './chat-index.js';
export * from './conversation-key.js';
export * from './openai-usage.js';
export * from './read-openai-calls.js';
export * from './context-length-exceeded.js';
export * from './model-windows.js';
export * from './stream-head.js';
export * from './remote-compaction.js';
