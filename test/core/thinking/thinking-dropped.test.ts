import { describe, expect, it } from 'vitest';
import { countThinkingDropped } from '../../../src/core/thinking/thinking-dropped.js';

describe('countThinkingDropped', () => {
  it('should count the thinking_dropped entries by reason, and not the blocks let through', () => {
    const got = countThinkingDropped([
      { type: 'thinking_dropped', path: 'messages.1.content.0', reason: 'prefix_binding_mismatch' },
      { type: 'thinking_dropped', path: 'messages.3.content.0', reason: 'model_binding_mismatch' },
      { type: 'thinking_dropped', path: 'messages.5.content.0', reason: 'prefix_binding_mismatch' },
      { type: 'thinking_mismatch_allowed', path: 'messages.7.content.0', reason: 'prefix_binding_mismatch' },
    ]);

    expect(got).toEqual({ count: 3, byReason: { prefix_binding_mismatch: 2, model_binding_mismatch: 1 } });
  });

  it('should count an unnamed or unknown reason as other', () => {
    expect(countThinkingDropped([{ type: 'thinking_dropped', reason: 'new_check' }, { type: 'thinking_dropped' }])).toEqual({
      count: 2,
      byReason: { other: 2 },
    });
  });

  it.each([[undefined], [null], [[]], [{}], ['thinking_dropped'], [[null, 3, 'x', { type: 'other_change' }]]])('should give undefined for %j', (value) => {
    expect(countThinkingDropped(value)).toBeUndefined();
  });
});
