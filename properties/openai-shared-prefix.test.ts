/**
 * Invariant 3, shared prefix, for the OpenAI APIs. Two requests A (earlier) and B (later) of one
 * generated conversation, and frozen blocks from the plan of any request P of it. Let k be the
 * number of A's items that end within the common prefix of A's and B's item lists (the bytes of
 * `input` / `messages`). Then the two outputs' lists agree on every byte up to the end of item k-1.
 * Since the client only appends, k is all of A's items. When the bytes before the list agree too
 * (client_metadata, new on every request, may sit before it, as any client may change a field
 * outside the transcript), the outputs agree from their first byte. Blocks frozen at or before A
 * keep applying in every later request.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rewriteRequest } from '../src/core/epochs/tool-results/tool-results.js';
import type { TranscriptIndex } from '../src/core/transcript-index-types.js';
import { openAiConversationArb } from './arbitraries/openai-transcript.js';
import { commonPrefixLength, sameBytes } from './support/bytes.js';
import { dialectOf, openAiIndexOf, openAiPlanOf } from './support/openai-support.js';
import { elidedDirArb, frozenOf, maskArb, pickBlocks, policyArb } from './support/rewrite-support.js';
import { sha256 } from './support/sha256.js';

function cutAfter(index: TranscriptIndex, k: number): number {
  return k === 0 ? index.messagesSpan.start : index.messages[k - 1]!.end;
}

describe.each(['responses', 'chat'] as const)('rewriteRequest on %s bodies', (api) => {
  it('should rewrite two requests of a conversation alike up to the first item where they differ', () => {
    fc.assert(
      fc.property(
        openAiConversationArb(api, 8, 3),
        fc.nat(),
        fc.nat(),
        fc.nat(),
        policyArb,
        maskArb,
        elidedDirArb,
        (requests, x, y, z, policy, mask, elidedDir) => {
          const [i, j] = [x % requests.length, y % requests.length].sort((a, b) => a - b) as [number, number];
          const p = z % requests.length;
          const a = requests[i]!;
          const b = requests[j]!;
          const frozen = pickBlocks(openAiPlanOf(requests[p]!, policy).map(frozenOf), mask);
          const options = { elidedDir, sha256, api: dialectOf(api) };

          const outA = rewriteRequest(a.bytes, frozen, options);
          const outB = rewriteRequest(b.bytes, frozen, options);

          const listA = openAiIndexOf(api, a.bytes).messagesSpan;
          const listB = openAiIndexOf(api, b.bytes).messagesSpan;
          const c = commonPrefixLength(a.bytes.subarray(listA.start, listA.end), b.bytes.subarray(listB.start, listB.end));
          const itemsA = openAiIndexOf(api, a.bytes).messages;
          let k = 0;
          while (k < itemsA.length && itemsA[k]!.end - listA.start <= c) k++;
          if (i < j) expect(k).toBe(a.itemCount);
          const oA = openAiIndexOf(api, outA.body);
          const oB = openAiIndexOf(api, outB.body);
          const cutA = cutAfter(oA, k);
          const cutB = cutAfter(oB, k);
          expect(cutA - oA.messagesSpan.start).toBe(cutB - oB.messagesSpan.start);
          expect(sameBytes(outA.body.subarray(oA.messagesSpan.start, cutA), outB.body.subarray(oB.messagesSpan.start, cutB))).toBe(true);
          if (listA.start === listB.start && sameBytes(a.bytes.subarray(0, listA.start), b.bytes.subarray(0, listB.start))) {
            expect(sameBytes(outA.body.subarray(0, cutA), outB.body.subarray(0, cutB))).toBe(true);
          }
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

  it('should never change bytes outside the item list', () => {
    fc.assert(
      fc.property(openAiConversationArb(api, 8, 3), fc.nat(), policyArb, elidedDirArb, (requests, x, policy, elidedDir) => {
        const request = requests[x % requests.length]!;
        const frozen = openAiPlanOf(requests[requests.length - 1]!, policy).map(frozenOf);

        const out = rewriteRequest(request.bytes, frozen, { elidedDir, sha256, api: dialectOf(api) }).body;

        const before = openAiIndexOf(api, request.bytes).messagesSpan;
        const after = openAiIndexOf(api, out).messagesSpan;
        expect(after.start).toBe(before.start);
        expect(sameBytes(out.subarray(0, after.start), request.bytes.subarray(0, before.start))).toBe(true);
        expect(sameBytes(out.subarray(after.end), request.bytes.subarray(before.end))).toBe(true);
      }),
      { numRuns: 100 },
    );
  });
});
