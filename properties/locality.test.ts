/**
 * Invariant 4, locality: only the `content` values of elided blocks change; every other byte is
 * copied. Tested by rebuilding the expected output independently: the input, with each applied
 * block's content span replaced by `JSON.stringify(renderStub(block))`, everything else copied in
 * order. Equality with the rewrite's output proves both halves: nothing else moved, and each
 * replaced value is exactly the JSON-encoded stub.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rewriteRequest } from '../src/core/epochs/tool-results/tool-results.js';
import { conversationArb, requestBodyArb } from './arbitraries/index.js';
import { sameBytes } from './support/bytes.js';
import { elidedDirArb, expectedRewrite, frozenOf, indexOf, maskArb, pickBlocks, planOf, policyArb } from './support/rewrite-support.js';
import { sha256 } from './support/sha256.js';

describe('rewriteRequest', () => {
  it('should change only the content values of the frozen blocks, each to its stub', () => {
    fc.assert(
      fc.property(requestBodyArb(8, 4), policyArb, maskArb, elidedDirArb, (request, policy, mask, elidedDir) => {
        const frozen = pickBlocks(planOf(request.bytes, policy).map(frozenOf), mask);
        fc.pre(frozen.length > 0);

        const outcome = rewriteRequest(request.bytes, frozen, { elidedDir, sha256 });

        expect(outcome.kind).toBe('applied');
        expect(outcome.skipped).toEqual([]);
        expect(outcome.kind === 'applied' && outcome.stubs).toBe(frozen.length);
        expect(outcome.kind === 'applied' && outcome.bytesTaken).toBe(frozen.reduce((n, b) => n + b.bytes, 0));
        const expected = expectedRewrite(request.bytes, indexOf(request.bytes), frozen, elidedDir);
        expect(sameBytes(outcome.body, expected)).toBe(true);
      }),
    );
  });

  it('should stub exactly the frozen blocks that still match, in a later request of the conversation', () => {
    fc.assert(
      fc.property(conversationArb(8, 4), fc.nat(), policyArb, maskArb, elidedDirArb, (requests, x, policy, mask, elidedDir) => {
        const request = requests[x % requests.length]!;
        const frozen = pickBlocks(planOf(requests[requests.length - 1]!.bytes, policy).map(frozenOf), mask);
        fc.pre(frozen.length > 0);

        const outcome = rewriteRequest(request.bytes, frozen, { elidedDir, sha256 });

        const skipped = new Set(outcome.skipped.map((s) => s.ordinal));
        const applied = frozen.filter((b) => !skipped.has(b.ordinal));
        const index = indexOf(request.bytes);
        // A block is skipped only when the request does not hold it (an earlier request).
        for (const s of outcome.skipped) expect(s.reason).toBe('missing_block');
        for (const b of applied) expect(index.toolResults[b.ordinal]?.toolUseId).toBe(b.toolUseId);
        if (applied.length === 0) {
          expect(outcome.kind === 'passthrough' && outcome.reason).toBe('epoch_mismatch');
          expect(outcome.body).toBe(request.bytes);
        } else {
          expect(sameBytes(outcome.body, expectedRewrite(request.bytes, index, applied, elidedDir))).toBe(true);
        }
      }),
    );
  });
});
