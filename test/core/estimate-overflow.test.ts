import { describe, expect, it } from 'vitest';
import { DEFAULT_TOKENS_PER_BYTE } from '../../src/core/fullness-reading.js';
import { overflowReadingOf } from '../../src/core/estimate-overflow.js';

describe('overflowReadingOf', () => {
  it('should keep the counts a refusal named, unmarked', () => {
    // Arrange
    const refusal = { tokens: 215_000, limit: 200_000 };

    // Act
    const reading = overflowReadingOf(refusal, { window: 200_000, sentBytes: 800_000, last: { contextTokens: 1, requestBytes: 1 } });

    // Assert
    expect(reading).toEqual({ tokens: 215_000, limit: 200_000 });
  });

  it("should estimate a count the refusal did not name from the conversation's last reading's tokens per byte", () => {
    // 150,000 tokens over 600,000 bytes is a quarter of a token per byte; 1,000,000 bytes were sent.
    const reading = overflowReadingOf({}, { window: 200_000, sentBytes: 1_000_000, last: { contextTokens: 150_000, requestBytes: 600_000 } });

    expect(reading).toEqual({ tokens: 250_000, estimated: true });
  });

  it('should estimate at least the window plus one, since the API said the request is over it', () => {
    const reading = overflowReadingOf({}, { window: 200_000, sentBytes: 10_000, last: { contextTokens: 150_000, requestBytes: 600_000 } });

    expect(reading).toEqual({ tokens: 200_001, estimated: true });
  });

  it('should fall back to the default tokens per byte without a reading', () => {
    const reading = overflowReadingOf({}, { window: 1000, sentBytes: 40_000, last: undefined });

    expect(reading).toEqual({ tokens: Math.round(40_000 * DEFAULT_TOKENS_PER_BYTE), estimated: true });
  });
});
