/** Shed mode's pure core: the span choice, its stub, rendering, the gate, the pricing. */
export * from './shed-types.js';
export * from './message-facts.js';
export * from './choose-span.js';
export * from './recent-window.js';
export * from './restore-call.js';
export * from './prompt-excerpt.js';
export * from './client-notice.js';
export * from './plan-span.js';
export * from './plan-to-fit.js';
export * from './span-stub.js';
export * from './read-pages.js';
export * from './render-span-markdown.js';
export * from '../break-even.js';
export * from './price-shed.js';
export * from './one-hour-cache.js';
export * from './gate-input.js';
export * from './weigh-span.js';
