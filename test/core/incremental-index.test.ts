import { describe, expect, it } from 'vitest';
import { commonPrefixLengthLoop } from '../../src/core/common-prefix.js';
import type { FrozenBlock } from '../../src/core/epoch-types.js';
import { indexIncrementally, sharedMessages } from '../../src/core/rewrite/incremental-index.js';
import { rewriteIncrementally } from '../../src/core/rewrite/incremental-rewrite.js';
import { freezeBlock, planElision } from '../../src/core/plan-elision.js';
import type { RewriteMemo } from '../../src/core/rewrite/rewrite-memo.js';
import { indexTranscript } from '../../src/core/messages/transcript-index.js';
import { conversation, filler, mustIndex, sha256, utf8 } from './bodies.js';

const CONTENTS = Array.from({ length: 10 }, (_, i) => filler(2000, i));
/** The conversation after `n` tool turns (each request is the last one plus a turn). */
const grown = (n: number): Uint8Array => conversation(CONTENTS.slice(0, n));

function memoOf(body: Uint8Array): RewriteMemo {
  const frozen: FrozenBlock[] = planElision(body, mustIndex(body), { keepRecent: 2, minBytes: 1024 }, sha256).map(freezeBlock);
  const memo = rewriteIncrementally(body, frozen, { elidedDir: '/e', sha256 }, indexIncrementally(body, undefined, commonPrefixLengthLoop)).memo;
  if (memo === undefined) throw new Error('expected a memo');
  return memo;
}

describe('indexIncrementally', () => {
  it('should index from scratch without a memo, and say it did not resume', () => {
    // Arrange
    const body = grown(4);

    // Act
    const indexed = indexIncrementally(body, undefined, commonPrefixLengthLoop);

    // Assert
    expect(indexed.outcome).toEqual(indexTranscript(body));
    expect(indexed.resumed).toBeUndefined();
    expect(indexed.resumable?.index).toBe(indexed.outcome.kind === 'indexed' ? indexed.outcome.index : undefined);
  });

  it('should resume after the messages the next request shares, and give the full index', () => {
    // Arrange: request 5 keeps request 4's messages but its last (the closing prompt).
    const memo = memoOf(grown(4));
    const next = grown(5);

    // Act
    const indexed = indexIncrementally(next, memo, commonPrefixLengthLoop);

    // Assert
    expect(indexed.resumed).toEqual({ memo, messageCount: memo.inputIndex.index.messages.length - 1 });
    expect(indexed.outcome).toEqual(indexTranscript(next));
  });

  it("should reuse the memo's message entries for the shared messages", () => {
    // Arrange
    const memo = memoOf(grown(4));

    // Act
    const indexed = indexIncrementally(grown(5), memo, commonPrefixLengthLoop);

    // Assert
    const index = indexed.outcome.kind === 'indexed' ? indexed.outcome.index : undefined;
    expect(index?.messages[3]).toBe(memo.inputIndex.index.messages[3]);
    expect(index?.toolResults[0]).toBe(memo.inputIndex.index.toolResults[0]);
  });

  it('should fall back to the full scan, and its reason, when the rest does not index', () => {
    // Arrange
    const memo = memoOf(grown(4));
    const body = grown(5);
    const truncated = body.subarray(0, body.length - 10);

    // Act
    const indexed = indexIncrementally(truncated, memo, commonPrefixLengthLoop);

    // Assert
    expect(indexed.outcome).toEqual(indexTranscript(truncated));
    expect(indexed.outcome.kind).toBe('failed');
    expect(indexed.resumed).toBeUndefined();
  });

  it('should index from scratch when the bodies differ before "messages"', () => {
    // Arrange
    const memo = memoOf(grown(4));
    const body = utf8(new TextDecoder().decode(grown(5)).replace('"claude-test"', '"claude-best"'));

    // Act
    const indexed = indexIncrementally(body, memo, commonPrefixLengthLoop);

    // Assert
    expect(indexed.resumed).toBeUndefined();
    expect(indexed.outcome).toEqual(indexTranscript(body));
  });

  it.each([
    ['a negative length', () => -1],
    ['a length past the shorter body', (a: Uint8Array, b: Uint8Array) => Math.min(a.length, b.length) + 1],
    ['a fraction', () => 100.5],
    [
      'a throw',
      () => {
        throw new Error('port broke');
      },
    ],
  ])('should not trust a prefix port that answers %s', (_name, port) => {
    // Arrange
    const memo = memoOf(grown(4));
    const body = grown(5);

    // Act
    const indexed = indexIncrementally(body, memo, port);

    // Assert
    expect(indexed.resumed).toBeUndefined();
    expect(indexed.outcome).toEqual(indexTranscript(body));
  });
});

describe('sharedMessages', () => {
  const index = mustIndex(grown(2));

  it.each([
    ['nothing', 0, undefined],
    ['up to the "[" only, not included', index.messagesSpan.start, undefined],
    ['the "[" of messages', index.messagesSpan.start + 1, 0],
    ['all but the last byte of message 0', index.messages[0]!.end - 1, 0],
    ['message 0 whole', index.messages[0]!.end, 1],
    ['message 2 whole and a byte more', index.messages[2]!.end + 1, 3],
    ['the whole body', index.byteLength, index.messages.length],
  ])('should count %s', (_name, prefixLength, expected) => {
    // Arrange: the index above.

    // Act
    const count = sharedMessages(index, prefixLength);

    // Assert
    expect(count).toBe(expected);
  });
});
