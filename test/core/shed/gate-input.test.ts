import { describe, expect, it } from 'vitest';
import { decideBurst, shedGateInput } from '../../../src/core/index.js';
import { bodyOf, mustIndex, session } from './shed-bodies.js';

describe('shedGateInput', () => {
  it('should weigh the span against every message after it, and count the turns so far', () => {
    const index = mustIndex(bodyOf(session(10)));
    const spanBytes = index.messages[8]!.end - index.messages[1]!.start;
    const suffixBytes = index.messages[20]!.end - index.messages[9]!.start;

    const input = shedGateInput(index, { first: 1, last: 8 }, { tokensPerByte: 0.5, stubBytes: 100, oneHourCache: false });

    expect(input).toEqual({
      invalidatedSuffixTokens: Math.round(suffixBytes * 0.5),
      droppedCachedTokens: Math.round((spanBytes - 100) * 0.5),
      turnsSoFar: 10,
      oneHourCache: false,
    });
    expect(decideBurst(input).latch).toBe(false);
  });

  it('should pass the horizon on, and never drop a negative count', () => {
    const index = mustIndex(bodyOf(session(10)));

    const input = shedGateInput(index, { first: 1, last: 2 }, { tokensPerByte: 1, stubBytes: 1e9, horizon: 500, oneHourCache: true });

    expect(input).toMatchObject({ droppedCachedTokens: 0, horizon: 500, oneHourCache: true });
  });
});
