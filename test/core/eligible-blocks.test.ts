import { describe, expect, it } from 'vitest';
import { commonPrefixLengthLoop } from '../../src/core/common-prefix.js';
import { DEFAULT_POLICY, planElision } from '../../src/core/plan-elision.js';
import { findEligible } from '../../src/core/eligible-blocks.js';
import { conversation, filler, mustIndex, replaceNth, sha256 } from './bodies.js';

const ELIDED_DIR = '/state/elided';

/** A conversation of `n` tool results of 2,000 bytes, grown from the same history. */
function grown(n: number): Uint8Array {
  return conversation(Array.from({ length: n }, (_, i) => filler(2000, i)));
}

function eligible(body: Uint8Array, memo?: ReturnType<typeof findEligible>['memo']): ReturnType<typeof findEligible> {
  return findEligible(body, mustIndex(body), DEFAULT_POLICY, { elidedDir: ELIDED_DIR }, memo, commonPrefixLengthLoop);
}

function planned(body: Uint8Array): { ordinal: number; toolUseId: string; bytes: number }[] {
  return planElision(body, mustIndex(body), DEFAULT_POLICY, sha256, { elidedDir: ELIDED_DIR }).map((b) => ({
    ordinal: b.ordinal,
    toolUseId: b.toolUseId,
    bytes: b.bytes,
  }));
}

describe('findEligible', () => {
  it('should find the blocks planElision plans, without a memo', () => {
    // Arrange
    const body = grown(10);

    // Act
    const found = eligible(body);

    // Assert
    expect(found.blocks).toEqual(planned(body));
    expect(found.blocks.map((b) => b.ordinal)).toEqual([0, 1, 2, 3]);
    expect(found.judged).toBe(4);
  });

  it('should judge only the blocks a grown request makes old enough', () => {
    // Arrange: two more turns make ordinals 4 and 5 old enough.
    const first = eligible(grown(10));
    const next = grown(12);

    // Act
    const found = eligible(next, first.memo);

    // Assert
    expect(found.blocks).toEqual(planned(next));
    expect(found.blocks.map((b) => b.ordinal)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(found.judged).toBe(2);
  });

  it('should judge a block again when its bytes changed, and all of them when the elided directory did', () => {
    // Arrange: the client clears the oldest result (Claude Code's placeholder), everything after moves.
    const body = grown(10);
    const first = eligible(body);
    const cleared = replaceNth(body, JSON.stringify(filler(2000, 0)), JSON.stringify('[Old tool result content cleared]'));

    // Act
    const afterClear = eligible(cleared, first.memo);
    const otherDir = findEligible(body, mustIndex(body), DEFAULT_POLICY, { elidedDir: '/other' }, first.memo, commonPrefixLengthLoop);

    // Assert
    expect(afterClear.blocks.map((b) => b.ordinal)).toEqual([1, 2, 3]);
    expect(afterClear.judged).toBe(4);
    expect(otherDir.judged).toBe(4);
  });

  it('should leave out a result whose tool call names the elided directory, as planElision does', () => {
    // Arrange: the agent reads an elided file back with the call of result 1.
    const body = replaceNth(grown(10), '"/p/1.ts"', JSON.stringify(`${ELIDED_DIR}/abc.txt`));
    const first = eligible(grown(10));

    // Act
    const found = eligible(body, first.memo);

    // Assert
    expect(found.blocks).toEqual(planned(body));
    expect(found.blocks.map((b) => b.ordinal)).toEqual([0, 2, 3]);
  });
});
