import { describe, expect, it } from 'vitest';
import { DEFAULT_TOKENS_PER_BYTE, fullnessOf, tokensPerByteOf, type FullnessReading } from '../../src/core/fullness-reading.js';

const READING: FullnessReading = { contextTokens: 150_000, window: 200_000, epochsApplied: 0, requestBytes: 600_000 };

describe('fullnessOf', () => {
  it('should be the context over the window, and 0 on a window of 0', () => {
    expect(fullnessOf(READING)).toBe(0.75);
    expect(fullnessOf({ ...READING, window: 0 })).toBe(0);
  });
});

describe('tokensPerByteOf', () => {
  it("should be the reading's own ratio, and the default without a request size", () => {
    expect(tokensPerByteOf(READING)).toBe(0.25);
    expect(tokensPerByteOf({ ...READING, contextTokens: 300_000 })).toBe(0.5);
    expect(tokensPerByteOf({ ...READING, requestBytes: 0 })).toBe(DEFAULT_TOKENS_PER_BYTE);
  });
});
