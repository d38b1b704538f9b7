/** The latch side of the two epoch kinds behind one interface (epoch-planner.ts). */
export * from './epoch-planner.js';
export * from './tool-results-latch.js';
export * from './spans-latch.js';
