import { describe, expect, it } from 'vitest';
import { decideBurst } from '../../../src/core/break-even.js';
import { rescueGateInput, shedGateInput } from '../../../src/core/shed/gate-input.js';
import { bodyOf, mustIndex, session } from './shed-bodies.js';

describe('shedGateInput', () => {
  it('should weigh the span against every message after it, with the turns so far it is given', () => {
    const index = mustIndex(bodyOf(session(10)));
    const spanBytes = index.messages[8]!.end - index.messages[1]!.start;
    const suffixBytes = index.messages[20]!.end - index.messages[9]!.start;

    const input = shedGateInput(index, { first: 1, last: 8 }, { tokensPerByte: 0.5, stubBytes: 100, turnsSoFar: 10, oneHourCache: false });

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

    const input = shedGateInput(index, { first: 1, last: 2 }, { tokensPerByte: 1, stubBytes: 1e9, turnsSoFar: 10, horizon: 500, oneHourCache: true });

    expect(input).toMatchObject({ droppedCachedTokens: 0, horizon: 500, oneHourCache: true });
  });
});

describe('rescueGateInput', () => {
  it("should weigh the blocks' JSON less their stubs against everything from the first stub on", () => {
    const index = mustIndex(bodyOf(session(10)));
    const first = index.toolResults[2]!;
    const added = [
      { ordinal: 2, jsonBytes: 300 },
      { ordinal: 4, jsonBytes: 500 },
    ];

    const input = rescueGateInput(index, added, { tokensPerByte: 1, stubBytes: 200, turnsSoFar: 7, oneHourCache: false });

    expect(input).toEqual({
      invalidatedSuffixTokens: index.messagesSpan.end - first.content.start,
      droppedCachedTokens: 600,
      turnsSoFar: 7,
      oneHourCache: false,
    });
  });
});
