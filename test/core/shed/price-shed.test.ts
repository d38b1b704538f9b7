import { describe, expect, it } from 'vitest';
import { priceShed } from '../../../src/core/shed/price-shed.js';

describe('priceShed', () => {
  it('should price a wholly warm shed at the cache-read marginal', () => {
    expect(priceShed({ shedTokens: 100_000, cacheReadTokens: 150_000 })).toEqual({
      shedTokens: 100_000,
      warmTokens: 100_000,
      coldTokens: 0,
      inputTokenEquivalent: 10_000,
      basis: 'cache_read_marginal',
      per: 'epoch',
    });
  });

  it('should price a wholly cold shed at full input', () => {
    expect(priceShed({ shedTokens: 30_000, cacheReadTokens: 0 })).toMatchObject({
      warmTokens: 0,
      coldTokens: 30_000,
      inputTokenEquivalent: 30_000,
      basis: 'full_input',
    });
  });

  it('should blend a mixed shed in proportion, never at one rate for all of it', () => {
    const price = priceShed({ shedTokens: 100_000, cacheReadTokens: 1, inputUsdPerMTok: 3 });

    // One warm token does not discount the other 99,999 (seed 000's ~10x under-count).
    expect(price).toMatchObject({ warmTokens: 1, coldTokens: 99_999, basis: 'blended' });
    expect(price.inputTokenEquivalent).toBeCloseTo(99_999.1, 6);
    expect(price.usdPerTurn).toBeCloseTo(0.2999973, 9);
  });

  it('should take another read multiplier, and clamp negatives', () => {
    expect(priceShed({ shedTokens: 10, cacheReadTokens: 10, readMult: 0.5 }).inputTokenEquivalent).toBe(5);
    expect(priceShed({ shedTokens: -5, cacheReadTokens: -1 })).toMatchObject({ shedTokens: 0, warmTokens: 0, coldTokens: 0 });
  });
});
