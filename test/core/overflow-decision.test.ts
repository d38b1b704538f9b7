import { describe, expect, it } from 'vitest';
import { decideBurst, GATE_CEILING, type GateInput } from '../../src/core/break-even.js';
import { decideOverflow } from '../../src/core/overflow-decision.js';
import { encodeJsonString } from '../../src/core/json-string.js';
import { renderStub } from '../../src/core/stub.js';
import { toolResultsOverflowTake, type ToolResultsOverflow } from '../../src/core/epochs/tool-results/tool-results-latch.js';
import type { FrozenBlock } from '../../src/core/epoch-types.js';
import { planned } from './planned-blocks.js';

const ELIDED_DIR = '/state/elided';

function frozen(ordinal: number): FrozenBlock {
  const { text: _text, ...block } = planned(ordinal, 10);
  return block;
}

const stubBytes = (b: FrozenBlock): number => encodeJsonString(new TextEncoder().encode(renderStub(b, ELIDED_DIR))).length;

// 215k tokens over 860 KB sent: 0.25 tokens per byte, 15k over a 200k maximum.
const INPUT: ToolResultsOverflow & { readonly limit: number } = {
  tokens: 215_000,
  limit: 200_000,
  sentBytes: 860_000,
  frozen: [],
  plan: [planned(0, 40_000), planned(1, 40_000)],
  elidedDir: ELIDED_DIR,
};

/** The tool-result kind's take on the refused request, decided. */
function decideOverflowLatch(input: typeof INPUT) {
  return decideOverflow({ tokens: input.tokens, limit: input.limit, take: toolResultsOverflowTake(input) });
}

describe('decideOverflow of tool results (toolResultsOverflowTake)', () => {
  it('should latch every block not yet frozen when they bring the request under the limit', () => {
    const decision = decideOverflowLatch(INPUT);

    const freed = Math.round((40_002 - stubBytes(planned(0, 40_000)) + 40_002 - stubBytes(planned(1, 40_000))) * 0.25);
    expect(decision).toEqual({ latch: true, choice: { added: INPUT.plan }, estimatedTokensFreed: freed, estimatedTokens: 215_000 - freed });
  });

  it('should ignore the threshold: a reading far over the window still latches', () => {
    const decision = decideOverflowLatch({ ...INPUT, tokens: 201_000, sentBytes: 804_000 });

    expect(decision.latch).toBe(true);
  });

  it('should say not_enough when what can be freed leaves the request over the limit', () => {
    const decision = decideOverflowLatch({ ...INPUT, plan: [planned(0, 20_000)] });

    expect(decision).toMatchObject({ latch: false, why: 'not_enough' });
    expect(decision.latch === false && decision.estimatedTokens! > 200_000).toBe(true);
  });

  it('should say nothing_new when every eligible block is frozen already', () => {
    const decision = decideOverflowLatch({ ...INPUT, frozen: [frozen(0), frozen(1)] });

    expect(decision).toEqual({ latch: false, why: 'nothing_new' });
  });

  it('should add only blocks not yet frozen, and count the stub each one leaves behind', () => {
    const decision = decideOverflowLatch({ ...INPUT, tokens: 205_000, frozen: [frozen(0)] });

    expect(decision.latch && decision.choice.added.map((b) => b.ordinal)).toEqual([1]);
    expect(decision.latch && decision.estimatedTokensFreed).toBe(Math.round((40_002 - stubBytes(planned(1, 40_000))) * (205_000 / 860_000)));
  });
});

// A span that frees 20k tokens of a 215k request, with 30k after it to re-write, 40 turns so far.
const GATE: GateInput = { invalidatedSuffixTokens: 30_000, droppedCachedTokens: 20_000, turnsSoFar: 40, oneHourCache: false };
const SPAN = { tokens: 215_000, limit: 200_000 };
const spanTake = (gate: GateInput) => ({ kind: 'some' as const, choice: 'span', freedTokens: gate.droppedCachedTokens, gate });

describe('decideOverflow of a span (with the gate)', () => {
  it("should latch when the span brings the request under the limit, with the gate weighed at the refusal's fullness", () => {
    const decision = decideOverflow({ ...SPAN, take: spanTake(GATE) });

    expect(decision).toEqual({
      latch: true,
      choice: 'span',
      gate: decideBurst({ ...GATE, fullness: 1.075 }),
      estimatedTokensFreed: 20_000,
      estimatedTokens: 195_000,
    });
    // 1.15 × 30k ÷ (0.1 × 20k) = 18 turns, within the 40 expected: it pays back, nothing is forced.
    expect(decision.latch && decision.gate?.forcedAt).toBeUndefined();
  });

  it("should latch a burst that would not pay back, and record it forced at the refusal's fullness", () => {
    const decision = decideOverflow({ ...SPAN, take: spanTake({ ...GATE, horizon: 0 }) });

    expect(decision).toMatchObject({ latch: true, gate: { latch: true, expectedRemainingTurns: 0, forcedAt: 1.075 } });
    expect(1.075).toBeGreaterThan(GATE_CEILING);
  });

  it('should decline when the span leaves the request over the limit, or frees nothing', () => {
    expect(decideOverflow({ ...SPAN, tokens: 230_000, take: spanTake(GATE) })).toEqual({ latch: false, why: 'not_enough', estimatedTokens: 210_000 });
    expect(decideOverflow({ ...SPAN, tokens: 150_000, take: spanTake({ ...GATE, droppedCachedTokens: 0 }) })).toMatchObject({
      latch: false,
      why: 'not_enough',
    });
  });

  it('should ignore the threshold and the gain rule: a small span that is enough latches', () => {
    const decision = decideOverflow({ tokens: 200_500, limit: 200_000, take: spanTake({ ...GATE, droppedCachedTokens: 600 }) });

    expect(decision).toMatchObject({ latch: true, estimatedTokens: 199_900 });
  });

  it("should say nothing_new, with the take's detail, when there is no span to shed", () => {
    expect(decideOverflow({ ...SPAN, take: { kind: 'none', detail: 'too_few_messages: none' } })).toEqual({
      latch: false,
      why: 'nothing_new',
      detail: 'too_few_messages: none',
    });
  });
});
