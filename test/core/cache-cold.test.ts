import { describe, expect, it } from 'vitest';
import { CACHE_TTL_1H_MS, CACHE_TTL_5M_MS, isPredictedCold, thresholdsFor } from '../../src/core/cache-cold.js';

describe('isPredictedCold', () => {
  it('should say cold only past the TTL the request asks for', () => {
    expect(isPredictedCold(CACHE_TTL_5M_MS, false)).toBe(false);
    expect(isPredictedCold(CACHE_TTL_5M_MS + 1, false)).toBe(true);
    expect(isPredictedCold(CACHE_TTL_5M_MS + 1, true)).toBe(false);
    expect(isPredictedCold(CACHE_TTL_1H_MS + 1, true)).toBe(true);
  });

  it('should not say cold without an earlier request, or for a gap that is no number', () => {
    expect(isPredictedCold(undefined, false)).toBe(false);
    expect(isPredictedCold(Number.NaN, false)).toBe(false);
  });
});

describe('thresholdsFor', () => {
  const settings = { threshold: 0.7, coldThreshold: 0.4 };

  it('should lower the threshold to the cold one on a cold request, and say so', () => {
    expect(thresholdsFor(settings, true)).toEqual({ threshold: 0.4, coldThreshold: 0.4, cold: true });
  });

  it('should keep the settings as they are, the same value, on a warm request, or with no cold threshold, or one not lower', () => {
    const plain = { threshold: 0.7 };
    const higher = { threshold: 0.7, coldThreshold: 0.8 };

    expect(thresholdsFor(settings, false)).toBe(settings);
    expect(thresholdsFor(plain, true)).toBe(plain);
    expect(thresholdsFor(higher, true)).toBe(higher);
  });

  it('should keep the token threshold as configured', () => {
    expect(thresholdsFor({ ...settings, rescueTokens: 5_000 }, true)).toEqual({ threshold: 0.4, coldThreshold: 0.4, rescueTokens: 5_000, cold: true });
  });
});
