import { describe, expect, it } from 'vitest';
import { triggerOf } from '../../src/core/epoch-trigger.js';

describe('triggerOf', () => {
  it('should give the recorded trigger', () => {
    expect(triggerOf({ trigger: 'overflow' })).toBe('overflow');
    expect(triggerOf({ trigger: 'threshold' })).toBe('threshold');
  });

  it('should read an epoch from before triggers were recorded as a threshold latch', () => {
    expect(triggerOf({})).toBe('threshold');
  });
});
