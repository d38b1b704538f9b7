import { describe, expect, it } from 'vitest';
import { sparkline } from '../../src/replay/sparkline.js';

describe('sparkline', () => {
  it('should draw one bar per value up to the width', () => {
    // Act / Assert
    expect(sparkline([0, 0.5, 0.99], 10)).toBe('▁▅█');
  });

  it('should keep the peak of each bucket when squeezing', () => {
    // Act / Assert
    expect(sparkline([0, 0.99, 0, 0], 2)).toBe('█▁');
    expect(sparkline([], 5)).toBe('');
  });
});
