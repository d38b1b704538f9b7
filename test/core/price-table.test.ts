import { describe, expect, it } from 'vitest';
import { costOf, PRICED_MODELS, priceOf } from '../../src/core/price-table.js';

describe('priceOf', () => {
  it('should price the current models from their pages, with their own cache rates', () => {
    // Act / Assert: USD per million tokens (input, output, 5m write, 1h write, read)
    expect(priceOf('claude-opus-5-5')).toEqual({ input: 4, output: 20, cacheWrite5m: 5, cacheWrite1h: 8, cacheRead: 0.2 });
    expect(priceOf('claude-sonnet-5-5')).toEqual({ input: 2, output: 10, cacheWrite5m: 2.5, cacheWrite1h: 4, cacheRead: 0.2 });
    expect(priceOf('claude-opus-5')).toEqual({ input: 5, output: 25, cacheWrite5m: 6.25, cacheWrite1h: 10, cacheRead: 0.5 });
    expect(priceOf('claude-fable-5-1')).toEqual({ input: 10, output: 50, cacheWrite5m: 12.5, cacheWrite1h: 20, cacheRead: 0.25 });
    expect(priceOf('claude-fable-5')?.cacheRead).toBe(1);
  });

  it("should bill Haiku 5.5's prompts over 100,000 tokens at its upper tier", () => {
    // Act / Assert
    expect(priceOf('claude-haiku-5-5', 100_000)).toMatchObject({ input: 0.1, output: 0.5, cacheRead: 0.01 });
    expect(priceOf('claude-haiku-5-5', 100_001)).toMatchObject({ input: 0.5, output: 2.5, cacheRead: 0.05 });
  });

  it('should know dated and 1M ids, and never price an unknown model as another', () => {
    // Act / Assert
    expect(priceOf('claude-haiku-4-5-20251001')?.input).toBe(1);
    expect(priceOf('claude-opus-4-6[1m]')?.input).toBe(5);
    expect(priceOf('claude-opus-5-5-20261001')?.input).toBe(4);
    // A newer point release is not its family's older one, and an unknown family is not priced.
    expect(priceOf('claude-opus-5-7')).toBeUndefined();
    expect(priceOf('claude-sonnet-5-9')).toBeUndefined();
    expect(priceOf('claude-opus-9')).toBeUndefined();
    expect(priceOf('gpt-5')).toBeUndefined();
    expect(PRICED_MODELS).toContain('claude-opus-5-5');
  });

  it('should cost a request at the rows of its model', () => {
    // Arrange
    const opus55 = priceOf('claude-opus-5-5');

    // Act
    const cost = opus55 === undefined ? Number.NaN : costOf(opus55, { input: 1e6, cacheRead: 1e6, write5m: 1e6, write1h: 1e6, output: 1e6 });

    // Assert
    expect(cost).toBeCloseTo(4 + 0.2 + 5 + 8 + 20, 10);
  });
});
