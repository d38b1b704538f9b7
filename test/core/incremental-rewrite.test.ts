import { describe, expect, it } from 'vitest';
import { commonPrefixLengthLoop } from '../../src/core/common-prefix.js';
import type { FrozenBlock } from '../../src/core/epoch-types.js';
import { indexIncrementally } from '../../src/core/rewrite/incremental-index.js';
import { rewriteIncrementally, type IncrementalRewrite } from '../../src/core/rewrite/incremental-rewrite.js';
import { freezeBlock, planElision } from '../../src/core/plan-elision.js';
import { rewriteRequest, type RewriteOptions } from '../../src/core/epochs/tool-results/tool-results.js';
import type { RewriteMemo } from '../../src/core/rewrite/rewrite-memo.js';
import { conversation, filler, fromUtf8, mustIndex, plain, sha256, utf8 } from './bodies.js';

const CONTENTS = Array.from({ length: 10 }, (_, i) => filler(2000, i));
/** The conversation after `n` tool turns (each request is the last one plus a turn). */
const grown = (n: number): Uint8Array => conversation(CONTENTS.slice(0, n));
/** Frozen at request 6: tool results 0..3 (the 2 newest are kept). */
const FROZEN: readonly FrozenBlock[] = planElision(grown(6), mustIndex(grown(6)), { keepRecent: 2, minBytes: 1024 }, sha256).map(freezeBlock);
const OPTIONS: RewriteOptions = { elidedDir: '/state/elided', sha256 };

function rewrite(body: Uint8Array, memo: RewriteMemo | undefined, frozen = FROZEN, options = OPTIONS): IncrementalRewrite {
  return rewriteIncrementally(body, frozen, options, indexIncrementally(body, memo, commonPrefixLengthLoop));
}

function memoAt(n: number, frozen = FROZEN, options = OPTIONS): RewriteMemo {
  const memo = rewrite(grown(n), undefined, frozen, options).memo;
  if (memo === undefined) throw new Error('expected a memo');
  return memo;
}

describe('rewriteIncrementally', () => {
  it('should rewrite from scratch without a memo, as rewriteRequest does, and leave a memo', () => {
    // Arrange
    const body = grown(6);

    // Act
    const result = rewrite(body, undefined);

    // Assert
    expect(result.path).toBe('full');
    expect(result.outcome).toEqual(rewriteRequest(body, FROZEN, OPTIONS));
    expect(result.memo?.input).toBe(body);
    expect(result.memo?.output).toBe(result.outcome.body);
    expect(result.memo?.verdicts).toEqual(['stubbed', 'stubbed', 'stubbed', 'stubbed']);
  });

  it('should rewrite the next request from the memo, to the bytes rewriteRequest gives', () => {
    // Arrange
    const memo = memoAt(6);
    const next = grown(7);

    // Act
    const result = rewrite(next, memo);

    // Assert
    const full = rewriteRequest(next, FROZEN, OPTIONS);
    expect(result.path).toBe('incremental');
    expect(result.outcome).toMatchObject({ kind: 'applied', stubs: 4, skipped: [] });
    expect(full.kind).toBe('applied');
    expect(plain(result.outcome.body)).toEqual(plain(full.body));
    expect(result.memo?.input).toBe(next);
  });

  it("should copy the memo's output up to the last shared message, stubs included", () => {
    // Arrange: request 7 shares request 6's messages but the closing prompt.
    const memo = memoAt(6);
    const shared = memo.outputIndex.index.messages.at(-2)!.end;

    // Act
    const result = rewrite(grown(7), memo);

    // Assert
    expect(plain(result.outcome.body.subarray(0, shared))).toEqual(plain(memo.output.subarray(0, shared)));
  });

  it('should keep going from memo to memo over many requests', () => {
    // Arrange
    let memo = memoAt(6);
    const paths: string[] = [];

    // Act
    for (let n = 7; n <= 10; n++) {
      const result = rewrite(grown(n), memo);
      paths.push(result.path);
      expect(plain(result.outcome.body)).toEqual(plain(rewriteRequest(grown(n), FROZEN, OPTIONS).body));
      memo = result.memo!;
    }

    // Assert
    expect(paths).toEqual(['incremental', 'incremental', 'incremental', 'incremental']);
  });

  it('should check the bytes after "messages" on every request, and carry a change there', () => {
    // Arrange
    const memo = memoAt(6);
    const next = utf8(fromUtf8(grown(7)).replace('"stream":true', '"stream":false'));

    // Act
    const result = rewrite(next, memo);

    // Assert
    expect(result.path).toBe('incremental');
    expect(fromUtf8(result.outcome.body).endsWith('"max_tokens":100,"stream":false}')).toBe(true);
    expect(plain(result.outcome.body)).toEqual(plain(rewriteRequest(next, FROZEN, OPTIONS).body));
  });

  it('should take the full path for another frozen list, even with the same blocks', () => {
    // Arrange
    const memo = memoAt(6);
    const frozen = [...FROZEN];

    // Act
    const result = rewrite(grown(7), memo, frozen);

    // Assert
    expect(result.path).toBe('full');
    expect(plain(result.outcome.body)).toEqual(plain(rewriteRequest(grown(7), frozen, OPTIONS).body));
    expect(result.memo?.frozen).toBe(frozen);
  });

  it('should take the full path when an elided file in the shared prefix went missing', () => {
    // Arrange
    const memo = memoAt(6);
    const lost = FROZEN[1]!;
    const options: RewriteOptions = { ...OPTIONS, isAvailable: (b) => b !== lost };

    // Act
    const result = rewrite(grown(7), memo, FROZEN, options);

    // Assert
    expect(result.path).toBe('full');
    expect(result.outcome).toMatchObject({ kind: 'applied', stubs: 3, skipped: [{ ordinal: lost.ordinal, reason: 'file_missing' }] });
    expect(plain(result.outcome.body)).toEqual(plain(rewriteRequest(grown(7), FROZEN, options).body));
  });

  it("should give rewriteRequest's pass-through when no frozen block matches any more, and leave the memo be", () => {
    // Arrange: the client rewound and sent other tool results in their places.
    const memo = memoAt(8);
    const rewound = conversation(CONTENTS.slice(5, 8));

    // Act
    const result = rewrite(rewound, memo);

    // Assert
    expect(result.outcome).toEqual(rewriteRequest(rewound, FROZEN, OPTIONS));
    expect(result.outcome).toMatchObject({ kind: 'passthrough', reason: 'epoch_mismatch' });
    expect(result.path).toBe('incremental');
    expect(result.outcome.body).toBe(rewound);
    expect(result.memo).toBeUndefined();
  });

  it('should pass a body without frozen blocks through as no_epoch', () => {
    // Arrange
    const body = grown(7);

    // Act
    const result = rewrite(body, memoAt(6), []);

    // Assert
    expect(result.outcome).toEqual(rewriteRequest(body, [], OPTIONS));
    expect(result.memo).toBeUndefined();
  });

  it("should pass a body that does not index through with the full scan's reason", () => {
    // Arrange
    const body = grown(7).subarray(0, 3000);

    // Act
    const result = rewrite(body, memoAt(6));

    // Assert
    expect(result.outcome).toEqual(rewriteRequest(body, FROZEN, OPTIONS));
    expect(result.outcome).toMatchObject({ kind: 'passthrough', reason: 'not_json' });
  });

  it('should index from scratch when handed the index of another body', () => {
    // Arrange
    const body = grown(7);
    const otherIndex = indexIncrementally(grown(6), undefined, commonPrefixLengthLoop);

    // Act
    const result = rewriteIncrementally(body, FROZEN, OPTIONS, otherIndex);

    // Assert
    expect(result.path).toBe('full');
    expect(plain(result.outcome.body)).toEqual(plain(rewriteRequest(body, FROZEN, OPTIONS).body));
  });
});
