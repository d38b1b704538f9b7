/** The apply side of every kind of epoch, behind one interface (epoch-applier.ts) and one function (apply.ts). */
export * from './epoch-applier.js';
export * from './apply.js';
export * from './check-outside.js';
export * from './check-tool-results.js';
export * from './check-spans.js';
export * from './inflate.js';
export * from './stub-cache.js';
export * from './judge-items.js';
export * from './find-span-stubs.js';
export * from './tool-results.js';
export * from './spans.js';
