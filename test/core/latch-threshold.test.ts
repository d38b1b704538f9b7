import { describe, expect, it } from 'vitest';
import { crossedThreshold, DEFAULT_LONG_WINDOW_RESCUE_TOKENS, firedThreshold, gainFloorTokens, tokenThresholdFor } from '../../src/core/latch-threshold.js';

describe('tokenThresholdFor', () => {
  it('should give windows over 200,000 the default, and none to a 200,000 window', () => {
    expect(tokenThresholdFor({ threshold: 0.7 }, 1_000_000)).toBe(DEFAULT_LONG_WINDOW_RESCUE_TOKENS);
    expect(tokenThresholdFor({ threshold: 0.7 }, 200_001)).toBe(DEFAULT_LONG_WINDOW_RESCUE_TOKENS);
    expect(tokenThresholdFor({ threshold: 0.7 }, 200_000)).toBeUndefined();
  });

  it('should take --rescue-tokens at any window, and 0 as none', () => {
    expect(tokenThresholdFor({ threshold: 0.7, rescueTokens: 50_000 }, 200_000)).toBe(50_000);
    expect(tokenThresholdFor({ threshold: 0.7, rescueTokens: 0 }, 1_000_000)).toBeUndefined();
  });
});

describe('crossedThreshold', () => {
  it('should name whichever threshold the reading met first', () => {
    const settings = { threshold: 0.7, rescueTokens: 100_000 };

    expect(crossedThreshold({ contextTokens: 99_999, window: 1_000_000 }, settings)).toBeUndefined();
    expect(crossedThreshold({ contextTokens: 100_000, window: 1_000_000 }, settings)).toBe('tokens');
    // 70% of 120k is 84k: the percentage came first.
    expect(crossedThreshold({ contextTokens: 110_000, window: 120_000 }, settings)).toBe('fullness');
    expect(crossedThreshold({ contextTokens: 84_000, window: 120_000 }, settings)).toBe('fullness');
  });

  it('should read the percentage alone where no token threshold is in force', () => {
    expect(crossedThreshold({ contextTokens: 139_999, window: 200_000 }, { threshold: 0.7 })).toBeUndefined();
    expect(crossedThreshold({ contextTokens: 140_000, window: 200_000 }, { threshold: 0.7 })).toBe('fullness');
  });
});

describe('gainFloorTokens', () => {
  it('should be a fraction of the window on a percentage crossing and of N / threshold on a token crossing', () => {
    expect(gainFloorTokens({ contextTokens: 150_000, window: 200_000 }, { threshold: 0.7 }, 0.1)).toBe(20_000);
    expect(gainFloorTokens({ contextTokens: 140_000, window: 1_000_000 }, { threshold: 0.7, rescueTokens: 140_000 }, 0.1)).toBeCloseTo(20_000);
    // N / threshold over the window: never more than the window's own floor.
    expect(gainFloorTokens({ contextTokens: 190_000, window: 250_000 }, { threshold: 0.7, rescueTokens: 190_000 }, 0.1)).toBe(25_000);
  });
});

describe('firedThreshold', () => {
  it('should say which fired and the token threshold in force, and nothing where only the percentage applies', () => {
    expect(firedThreshold({ contextTokens: 130_000, window: 1_000_000 }, { threshold: 0.7 })).toEqual({
      crossed: 'tokens',
      thresholdTokens: DEFAULT_LONG_WINDOW_RESCUE_TOKENS,
    });
    expect(firedThreshold({ contextTokens: 150_000, window: 200_000 }, { threshold: 0.7 })).toBeUndefined();
    expect(firedThreshold({ contextTokens: 150_000, window: 200_000 }, { threshold: 0.7, rescueTokens: 160_000 })).toEqual({
      crossed: 'fullness',
      thresholdTokens: 160_000,
    });
  });
});
