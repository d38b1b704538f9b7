import { describe, expect, it } from 'vitest';
import { decideOverflowLatch, encodeJsonString, renderStub, type FrozenBlock, type OverflowInput, type PlannedBlock } from '../../src/core/index.js';

const ELIDED_DIR = '/state/elided';

function planned(ordinal: number, bytes: number): PlannedBlock {
  return {
    ordinal,
    toolUseId: `toolu_${ordinal}`,
    bytes,
    sha256: String(ordinal).padStart(64, '0'),
    jsonBytes: bytes + 2,
    jsonSha256: String(ordinal).padStart(64, '1'),
    text: new Uint8Array(0),
  };
}

function frozen(ordinal: number): FrozenBlock {
  const { text: _text, ...block } = planned(ordinal, 10);
  return block;
}

const stubBytes = (b: FrozenBlock): number => encodeJsonString(new TextEncoder().encode(renderStub(b, ELIDED_DIR))).length;

// 215k tokens over 860 KB sent: 0.25 tokens per byte, 15k over a 200k maximum.
const INPUT: OverflowInput = {
  tokens: 215_000,
  limit: 200_000,
  requestBytes: 860_000,
  frozen: [],
  plan: [planned(0, 40_000), planned(1, 40_000)],
  elidedDir: ELIDED_DIR,
};

describe('decideOverflowLatch', () => {
  it('should latch every block not yet frozen when they bring the request under the limit', () => {
    const decision = decideOverflowLatch(INPUT);

    const freed = Math.round((40_002 - stubBytes(planned(0, 40_000)) + 40_002 - stubBytes(planned(1, 40_000))) * 0.25);
    expect(decision).toEqual({ latch: true, added: INPUT.plan, estimatedTokensFreed: freed, estimatedTokens: 215_000 - freed });
  });

  it('should ignore the threshold: a reading far over the window still latches', () => {
    const decision = decideOverflowLatch({ ...INPUT, tokens: 201_000, requestBytes: 804_000 });

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

    expect(decision.latch && decision.added.map((b) => b.ordinal)).toEqual([1]);
    expect(decision.latch && decision.estimatedTokensFreed).toBe(Math.round((40_002 - stubBytes(planned(1, 40_000))) * (205_000 / 860_000)));
  });
});
