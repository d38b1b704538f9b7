import { describe, expect, it } from 'vitest';
import { decideBurst, GATE_CEILING } from '../../../src/core/break-even.js';

describe('decideBurst', () => {
  it("should give seed 001's example: 23 turns to pay back 20k dropped against a 40k suffix", () => {
    const decision = decideBurst({ invalidatedSuffixTokens: 40_000, droppedCachedTokens: 20_000, turnsSoFar: 40, horizon: 10, oneHourCache: false });

    expect(decision).toEqual({
      writeMult: 1.25,
      readMult: 0.1,
      invalidatedSuffixTokens: 40_000,
      droppedCachedTokens: 20_000,
      breakEvenTurns: 23,
      expectedRemainingTurns: 10,
      horizonFrom: 'horizon',
      latch: false,
    });
    expect(decideBurst({ invalidatedSuffixTokens: 40_000, droppedCachedTokens: 20_000, turnsSoFar: 20, horizon: 30, oneHourCache: false }).latch).toBe(true);
  });

  it('should assume as many turns ahead as behind without a horizon, and latch at exactly break-even', () => {
    const decision = decideBurst({ invalidatedSuffixTokens: 40_000, droppedCachedTokens: 20_000, turnsSoFar: 23, oneHourCache: false });

    expect(decision).toMatchObject({ expectedRemainingTurns: 23, horizonFrom: 'turns_so_far', latch: true });
  });

  it('should weigh a one-hour cache write at 2.0', () => {
    const decision = decideBurst({ invalidatedSuffixTokens: 40_000, droppedCachedTokens: 20_000, turnsSoFar: 100, oneHourCache: true });

    // (2.0 - 0.1) * 40000 / (0.1 * 20000) = 38
    expect(decision).toMatchObject({ writeMult: 2, readMult: 0.1, breakEvenTurns: 38 });
  });

  it('should never latch when nothing cached is dropped, and always when nothing is invalidated', () => {
    expect(decideBurst({ invalidatedSuffixTokens: 5, droppedCachedTokens: 0, turnsSoFar: 1e9, oneHourCache: false })).toMatchObject({
      breakEvenTurns: null,
      latch: false,
    });
    expect(decideBurst({ invalidatedSuffixTokens: 0, droppedCachedTokens: 0, turnsSoFar: 0, oneHourCache: false })).toMatchObject({
      breakEvenTurns: 0,
      latch: true,
    });
    expect(decideBurst({ invalidatedSuffixTokens: -3, droppedCachedTokens: 10, turnsSoFar: 0, horizon: -1, oneHourCache: false })).toMatchObject({
      breakEvenTurns: 0,
      expectedRemainingTurns: 0,
      latch: true,
    });
  });

  it('should give way from the ceiling on, saying at what fullness, when the burst does not pay back', () => {
    const refused = { invalidatedSuffixTokens: 40_000, droppedCachedTokens: 20_000, turnsSoFar: 40, horizon: 10, oneHourCache: false };

    expect(decideBurst({ ...refused, fullness: 0.8499 })).toMatchObject({ latch: false });
    expect(decideBurst({ ...refused, fullness: 0.8499 }).forcedAt).toBeUndefined();
    expect(decideBurst({ ...refused, fullness: GATE_CEILING })).toMatchObject({ latch: true, forcedAt: 0.85, breakEvenTurns: 23 });
    expect(decideBurst({ ...refused, fullness: 1.23456 })).toMatchObject({ latch: true, forcedAt: 1.2346 });
  });

  it('should not mark a burst that pays back as forced, nor force one that drops nothing cached', () => {
    expect(
      decideBurst({ invalidatedSuffixTokens: 40_000, droppedCachedTokens: 20_000, turnsSoFar: 40, oneHourCache: false, fullness: 0.95 }).forcedAt,
    ).toBeUndefined();
    expect(decideBurst({ invalidatedSuffixTokens: 5, droppedCachedTokens: 0, turnsSoFar: 0, oneHourCache: false, fullness: 0.99 })).toMatchObject({
      latch: false,
      breakEvenTurns: null,
    });
  });
});
