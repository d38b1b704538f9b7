import { describe, expect, it } from 'vitest';
import { commonPrefixLengthLoop } from '../../src/core/common-prefix.js';
import type { FrozenBlock } from '../../src/core/epoch-types.js';
import { indexIncrementally } from '../../src/core/rewrite/incremental-index.js';
import { rewriteIncrementally } from '../../src/core/rewrite/incremental-rewrite.js';
import { freezeBlock, planElision } from '../../src/core/plan-elision.js';
import { createMemo, INDEX_ENTRY_BYTES, memoServes, type RewriteMemo } from '../../src/core/rewrite/rewrite-memo.js';
import { conversation, filler, mustIndex, sha256 } from './bodies.js';

const DIR = '/state/elided';
const BODY = conversation(Array.from({ length: 8 }, (_, i) => filler(2000, i)));
const FROZEN: readonly FrozenBlock[] = planElision(BODY, mustIndex(BODY), { keepRecent: 6, minBytes: 1024 }, sha256).map(freezeBlock);

function memoFor(frozen: readonly FrozenBlock[] = FROZEN): RewriteMemo {
  const memo = rewriteIncrementally(BODY, frozen, { elidedDir: DIR, sha256 }, indexIncrementally(BODY, undefined, commonPrefixLengthLoop)).memo;
  if (memo === undefined) throw new Error('expected a memo');
  return memo;
}

describe('createMemo', () => {
  it('should count both bodies and an estimate per index entry in its size', () => {
    // Arrange
    const memo = memoFor();
    const index = memo.inputIndex.index;
    const entries = index.messages.length + index.messages.reduce((n, m) => n + m.blocks.length, 0) + index.toolResults.length;

    // Act
    const again = createMemo(memo);

    // Assert
    expect(again.bytes).toBe(memo.input.length + memo.output.length + 2 * entries * INDEX_ENTRY_BYTES);
  });

  it('should keep a copy of the frozen entries, apart from the list itself', () => {
    // Arrange
    const frozen = [...FROZEN];

    // Act
    const memo = memoFor(frozen);

    // Assert
    expect(memo.frozen).toBe(frozen);
    expect(memo.frozenEntries).not.toBe(frozen);
    expect(memo.frozenEntries).toEqual(frozen);
  });
});

describe('memoServes', () => {
  it('should serve the very list, directory and hash it was made with', () => {
    // Arrange
    const memo = memoFor();

    // Act
    const serves = memoServes(memo, FROZEN, DIR, sha256);

    // Assert
    expect(serves).toBe(true);
  });

  it.each([
    ['another list with the same blocks', () => [...FROZEN], DIR, sha256],
    ['another elided directory', () => FROZEN, '/other/elided', sha256],
    ['another hash function', () => FROZEN, DIR, (b: Uint8Array) => sha256(b)],
  ])('should not serve %s', (_name, frozen, dir, hash) => {
    // Arrange
    const memo = memoFor();

    // Act
    const serves = memoServes(memo, frozen(), dir, hash);

    // Assert
    expect(serves).toBe(false);
  });

  it('should not serve its own list once that list changed in place', () => {
    // Arrange
    const frozen = [...FROZEN];
    const memo = memoFor(frozen);

    // Act
    frozen.reverse();

    // Assert
    expect(memoServes(memo, frozen, DIR, sha256)).toBe(false);
  });
});
