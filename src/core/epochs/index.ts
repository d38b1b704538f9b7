/**
 * Every kind of epoch behind one interface: the latch side (epoch-planner.ts: take, overflow take,
 * the epoch's part) and the apply side (epoch-applier.ts, one function in apply.ts), each with its
 * two implementations, tool results and spans.
 */
export * from './epoch-planner.js';
export * from './tool-results/tool-results-latch.js';
export * from './tool-results/plan-parts.js';
export * from './spans/spans-latch.js';
export * from './epoch-applier.js';
export * from './apply.js';
export * from './check-outside.js';
export * from './tool-results/check-tool-results.js';
export * from './spans/check-spans.js';
export * from './inflate.js';
export * from './stub-cache.js';
export * from './judge-items.js';
export * from './spans/find-span-stubs.js';
export * from './tool-results/tool-results.js';
export * from './spans/spans.js';
export * from './working-set.js';
export * from './repeat-groups.js';
export * from './request-tokens.js';
export * from './frozen-items.js';
export * from './kind-info.js';
export * from './first-change.js';
