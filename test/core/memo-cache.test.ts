import { describe, expect, it } from 'vitest';
import { commonPrefixLengthLoop } from '../../src/core/common-prefix.js';
import { indexIncrementally } from '../../src/core/rewrite/incremental-index.js';
import { rewriteIncrementally } from '../../src/core/rewrite/incremental-rewrite.js';
import { DEFAULT_MEMO_LIMITS, MemoCache } from '../../src/core/rewrite/memo-cache.js';
import { freezeBlock, planElision } from '../../src/core/plan-elision.js';
import type { RewriteMemo } from '../../src/core/rewrite/rewrite-memo.js';
import { conversation, filler, mustIndex, sha256 } from './bodies.js';

/** A real memo, with its size set to `bytes` (the cache reads nothing else). */
const MEMO: RewriteMemo = (() => {
  const body = conversation(Array.from({ length: 8 }, (_, i) => filler(2000, i)));
  const frozen = planElision(body, mustIndex(body), { keepRecent: 6, minBytes: 1024 }, sha256).map(freezeBlock);
  const memo = rewriteIncrementally(body, frozen, { elidedDir: '/e', sha256 }, indexIncrementally(body, undefined, commonPrefixLengthLoop)).memo;
  if (memo === undefined) throw new Error('expected a memo');
  return memo;
})();

function memoOf(bytes: number): RewriteMemo {
  return { ...MEMO, bytes };
}

const LIMITS = { capBytes: 1000, idleMs: 60_000 };

describe('MemoCache', () => {
  it('should hold one memo per conversation, the latest one', () => {
    // Arrange
    const cache = new MemoCache(LIMITS);
    const older = memoOf(100);
    const newer = memoOf(200);

    // Act
    cache.set('a', older, 0);
    cache.set('a', newer, 1);

    // Assert
    expect(cache.get('a', 2)).toBe(newer);
    expect(cache.size).toBe(1);
    expect(cache.bytes).toBe(200);
  });

  it('should drop the least recently used memos once the total passes the cap', () => {
    // Arrange
    const cache = new MemoCache(LIMITS);
    cache.set('a', memoOf(400), 0);
    cache.set('b', memoOf(400), 1);
    cache.get('a', 2); // a is now the most recently used

    // Act
    cache.set('c', memoOf(400), 3);

    // Assert
    expect(cache.get('b', 4)).toBeUndefined();
    expect(cache.get('a', 4)).toBeDefined();
    expect(cache.get('c', 4)).toBeDefined();
    expect(cache.bytes).toBe(800);
  });

  it('should not keep a memo bigger than the cap, nor the one it replaces', () => {
    // Arrange
    const cache = new MemoCache(LIMITS);
    cache.set('a', memoOf(100), 0);

    // Act
    cache.set('a', memoOf(1001), 1);

    // Assert
    expect(cache.get('a', 2)).toBeUndefined();
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
  });

  it('should drop memos idle for the idle limit, and keep the others', () => {
    // Arrange
    const cache = new MemoCache(LIMITS);
    cache.set('old', memoOf(100), 0);
    cache.set('fresh', memoOf(100), 50_000);

    // Act
    const dropped = cache.prune(60_000);

    // Assert
    expect(dropped).toBe(1);
    expect(cache.get('old', 60_000)).toBeUndefined();
    expect(cache.get('fresh', 60_000)).toBeDefined();
    expect(cache.bytes).toBe(100);
  });

  it('should not hand out an idle memo even before a prune', () => {
    // Arrange
    const cache = new MemoCache(LIMITS);
    cache.set('a', memoOf(100), 0);

    // Act
    const memo = cache.get('a', 60_000);

    // Assert
    expect(memo).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('should count a get as a use, so a memo in use never goes idle', () => {
    // Arrange
    const cache = new MemoCache(LIMITS);
    cache.set('a', memoOf(100), 0);
    cache.get('a', 50_000);

    // Act
    const dropped = cache.prune(100_000);

    // Assert
    expect(dropped).toBe(0);
    expect(cache.get('a', 100_000)).toBeDefined();
  });

  it("should forget a conversation's memo on delete, and ignore a key it does not hold", () => {
    // Arrange
    const cache = new MemoCache(LIMITS);
    cache.set('a', memoOf(100), 0);

    // Act
    cache.delete('a');
    cache.delete('nobody');

    // Assert
    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.bytes).toBe(0);
  });

  it('should leave a newer memo alone when told to forget an older one', () => {
    // Arrange
    const cache = new MemoCache(LIMITS);
    const older = memoOf(100);
    const newer = memoOf(200);
    cache.set('a', newer, 0);

    // Act
    cache.delete('a', older);

    // Assert
    expect(cache.get('a', 1)).toBe(newer);
  });

  it('should default to a 64 MiB cap and a 10 minute idle limit', () => {
    // Arrange, act
    const cache = new MemoCache();

    // Assert
    expect(cache.limits).toBe(DEFAULT_MEMO_LIMITS);
    expect(DEFAULT_MEMO_LIMITS).toEqual({ capBytes: 64 * 1024 * 1024, idleMs: 600_000 });
  });
});
