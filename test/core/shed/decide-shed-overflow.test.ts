import { describe, expect, it } from 'vitest';
import { decideBurst, decideShedOverflow, GATE_CEILING, type GateInput } from '../../../src/core/index.js';

// A span that frees 20k tokens of a 215k request, with 30k after it to re-write, 40 turns so far.
const GATE: GateInput = { invalidatedSuffixTokens: 30_000, droppedCachedTokens: 20_000, turnsSoFar: 40, oneHourCache: false };
const INPUT = { tokens: 215_000, limit: 200_000, gate: GATE };

describe('decideShedOverflow', () => {
  it("should latch when the span brings the request under the limit, with the gate weighed at the refusal's fullness", () => {
    const decision = decideShedOverflow(INPUT);

    expect(decision).toEqual({ latch: true, gate: decideBurst({ ...GATE, fullness: 1.075 }), estimatedTokensFreed: 20_000, estimatedTokens: 195_000 });
    // 1.15 × 30k ÷ (0.1 × 20k) = 18 turns, within the 40 expected: it pays back, nothing is forced.
    expect(decision.latch && decision.gate.forcedAt).toBeUndefined();
  });

  it("should latch a burst that would not pay back, and record it forced at the refusal's fullness", () => {
    const decision = decideShedOverflow({ ...INPUT, gate: { ...GATE, horizon: 0 } });

    expect(decision).toMatchObject({ latch: true, gate: { latch: true, expectedRemainingTurns: 0, forcedAt: 1.075 } });
    expect(1.075).toBeGreaterThan(GATE_CEILING);
  });

  it('should decline when the span leaves the request over the limit, or frees nothing', () => {
    expect(decideShedOverflow({ ...INPUT, tokens: 230_000 })).toEqual({ latch: false, why: 'not_enough', estimatedTokens: 210_000 });
    expect(decideShedOverflow({ ...INPUT, tokens: 150_000, gate: { ...GATE, droppedCachedTokens: 0 } })).toMatchObject({ latch: false, why: 'not_enough' });
  });

  it('should ignore the threshold and the gain rule: a small span that is enough latches', () => {
    const decision = decideShedOverflow({ tokens: 200_500, limit: 200_000, gate: { ...GATE, droppedCachedTokens: 600 } });

    expect(decision).toMatchObject({ latch: true, estimatedTokens: 199_900 });
  });
});
