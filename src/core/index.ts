/** ctxshed's pure core: no I/O, no clock, no `node:` imports. The edges import from here. */
export * from './epoch-types.js';
export * from './ports.js';
export * from './json-scan.js';
export * from './json-string.js';
export * from './transcript-index.js';
export * from './block-text.js';
export * from './stub.js';
export * from './splices.js';
export * from './plan-elision.js';
export * from './passthrough-reasons.js';
export * from './check-rewrite.js';
export * from './rewrite.js';
export * from './inflate.js';
export * from './conversation-key.js';
export * from './first-message.js';
export * from './latch-decision.js';
