/**
 * Invariant 3, shared prefix: if two requests of a conversation agree on their `messages` up to
 * some point, their rewrites agree up to the same point. So the provider's prompt cache is
 * re-written once per epoch, not once per turn.
 *
 * The exact claim tested. Take two requests A (earlier) and B (later) of one generated
 * conversation, and frozen blocks from the plan of any request P of it. Let c be the length of
 * the common byte prefix of A and B, and k the number of A's messages that end within it
 * (messages 0..k-1 are byte-identical, at the same offsets, in both; so is everything before
 * `messages`). Then, with cut = the end of message k-1 in each *output* (or the start of `messages`
 * when k = 0), the two outputs have the same cut, and agree on every byte before it.
 * The client model also pins down k: it is at least A's message count - 1, since the client only
 * ever edits its previous last message. And blocks frozen at or before A keep applying in every
 * later request (no skips), which is what makes an epoch's cache re-write a one-off.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rewriteRequest } from '../src/core/epochs/tool-results/tool-results.js';
import type { TranscriptIndex } from '../src/core/transcript-index-types.js';
import { conversationArb } from './arbitraries/index.js';
import { commonPrefixLength, sameBytes } from './support/bytes.js';
import { elidedDirArb, frozenOf, indexOf, maskArb, pickBlocks, planOf, policyArb } from './support/rewrite-support.js';
import { sha256 } from './support/sha256.js';

/** The end of message k-1, or the start of `messages` when k = 0. */
function cutAfter(index: TranscriptIndex, k: number): number {
  return k === 0 ? index.messagesSpan.start : index.messages[k - 1]!.end;
}

describe('rewriteRequest', () => {
  it('should rewrite two requests of a conversation alike up to the first message where they differ', () => {
    fc.assert(
      fc.property(
        conversationArb(8, 3),
        fc.nat(),
        fc.nat(),
        fc.oneof(fc.constant('at A' as const), fc.constant('at the last' as const), fc.nat()),
        policyArb,
        maskArb,
        elidedDirArb,
        (requests, x, y, planAt, policy, mask, elidedDir) => {
          const [i, j] = [x % requests.length, y % requests.length].sort((a, b) => a - b) as [number, number];
          const p = planAt === 'at A' ? i : planAt === 'at the last' ? requests.length - 1 : planAt % requests.length;
          const a = requests[i]!;
          const b = requests[j]!;
          const frozen = pickBlocks(planOf(requests[p]!.bytes, policy).map(frozenOf), mask);

          const outA = rewriteRequest(a.bytes, frozen, { elidedDir, sha256 });
          const outB = rewriteRequest(b.bytes, frozen, { elidedDir, sha256 });

          const inIndex = indexOf(a.bytes);
          const c = commonPrefixLength(a.bytes, b.bytes);
          let k = 0;
          while (k < inIndex.messages.length && inIndex.messages[k]!.end <= c) k++;
          if (i < j) expect(k).toBeGreaterThanOrEqual(a.messageCount - 1);
          const cutA = cutAfter(indexOf(outA.body), k);
          const cutB = cutAfter(indexOf(outB.body), k);
          expect(cutA).toBe(cutB);
          expect(sameBytes(outA.body.subarray(0, cutA), outB.body.subarray(0, cutB))).toBe(true);
          if (p <= i && frozen.length > 0) {
            expect(outA.kind).toBe('applied');
            expect(outB.kind).toBe('applied');
            expect(outA.skipped).toEqual([]);
            expect(outB.skipped).toEqual([]);
          }
        },
      ),
    );
  });

  it('should never change bytes outside "messages"', () => {
    fc.assert(
      fc.property(conversationArb(8, 3), fc.nat(), policyArb, elidedDirArb, (requests, x, policy, elidedDir) => {
        const request = requests[x % requests.length]!;
        const frozen = planOf(requests[requests.length - 1]!.bytes, policy).map(frozenOf);

        const out = rewriteRequest(request.bytes, frozen, { elidedDir, sha256 }).body;

        const before = indexOf(request.bytes).messagesSpan;
        const after = indexOf(out).messagesSpan;
        expect(after.start).toBe(before.start);
        expect(sameBytes(out.subarray(0, after.start), request.bytes.subarray(0, before.start))).toBe(true);
        expect(sameBytes(out.subarray(after.end), request.bytes.subarray(before.end))).toBe(true);
      }),
      { numRuns: 100 },
    );
  });
});
