import { describe, expect, it } from 'vitest';
import { DEFAULT_TOKENS_PER_BYTE } from '../../src/core/fullness-reading.js';
import { fitTokens } from '../../src/replay/fit-tokens.js';

describe('fitTokens', () => {
  it('should recover a shared ratio and each conversation its prefix', () => {
    // Arrange: tokens = prefix + 0.3 x bytes exactly
    const samples = [
      ...[1000, 5000, 9000].map((bytes) => ({ conversation: 'a', bytes, tokens: 20_000 + 0.3 * bytes })),
      ...[2000, 4000].map((bytes) => ({ conversation: 'b', bytes, tokens: 7_000 + 0.3 * bytes })),
    ];

    // Act
    const model = fitTokens(samples);

    // Assert
    expect(model.tokensPerByte).toBeCloseTo(0.3, 9);
    expect(model.prefixTokens.get('a')).toBeCloseTo(20_000, 6);
    expect(model.prefixTokens.get('b')).toBeCloseTo(7_000, 6);
  });

  it('should fall back to the core ratio when bytes never vary', () => {
    // Act
    const model = fitTokens([{ conversation: 'a', bytes: 400, tokens: 1000 }]);

    // Assert
    expect(model.tokensPerByte).toBe(DEFAULT_TOKENS_PER_BYTE);
    expect(model.prefixTokens.get('a')).toBe(1000 - 400 * DEFAULT_TOKENS_PER_BYTE);
  });
});
