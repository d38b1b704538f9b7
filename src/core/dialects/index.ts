/** The API dialects (docs/adding-a-dialect.md): one record each, and the registry by route. */
export * from './dialect.js';
export * from './messages.js';
export * from './messages-usage.js';
export * from './model-calls.js';
export * from './responses.js';
export * from './chat.js';
export * from './registry.js';
export * from './index-any-api.js';
export * from './openai-dialect-parts.js';
export * from './openai-usage-events.js';
