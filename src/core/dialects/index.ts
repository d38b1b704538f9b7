/** The API dialects (docs/adding-a-dialect.md): one record each, and the registry by route. */
export * from './dialect.js';
export * from './messages.js';
export * from './messages-usage.js';
export * from './responses.js';
export * from './chat.js';
export * from './registry.js';
