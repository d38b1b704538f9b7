/** Thinking blocks on models that run the prefix check (docs/rescue.md, "Preserved thinking"). */
export * from './prefix-check-models.js';
export * from './thinking-types.js';
export * from './list-thinking.js';
export * from './plan-thinking.js';
export * from './remove-thinking.js';
export * from './freeze-in-plan.js';
export * from './reinsert-thinking.js';
export * from './prefix-mismatch.js';
export * from './thinking-dropped.js';
export * from './turn-place.js';
