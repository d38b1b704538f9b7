/**
 * The dialect's types and the Messages dialect, where older imports look for them: the records live
 * in `core/dialects/` (docs/adding-a-dialect.md).
 */
export type { ApiDialect, ApiName, DialectCapabilities } from './dialects/dialect.js';
export { MESSAGES_API } from './dialects/messages.js';
