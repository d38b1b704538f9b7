/**
 * Shed mode, shared prefix: if two requests of a conversation agree on their messages up to some
 * point, their shed outputs agree up to the same point; so the provider's cache is re-written
 * once per epoch, not once per turn. And spans frozen at or before a request keep applying to it
 * and to every later request (no skips), and the head, message 0, is byte-identical in all.
 *
 * The exact claim. A (earlier) and B (later) are requests of one generated conversation; spans
 * are latched at requests up to A. With k the number of A's messages that end within the common
 * byte prefix of A and B, every span lies within those k messages, and the outputs agree on every
 * byte up to the end of the output message standing for input message k-1.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyEpochs } from '../src/core/epochs/apply.js';
import { SPANS } from '../src/core/epochs/spans/spans.js';
import type { FrozenSpan } from '../src/core/shed/shed-types.js';
import type { TranscriptIndex } from '../src/core/transcript-index-types.js';
import { conversationArb } from './arbitraries/index.js';
import { commonPrefixLength, sameBytes } from './support/bytes.js';
import { indexOf } from './support/rewrite-support.js';
import { frozenSpans, latchPointsArb, latchSpans, shedPolicyArb, spansDirArb } from './support/shed-support.js';
import { sha256 } from './support/sha256.js';

/** The output offset where the output message standing for input message k-1 ends. */
function outputCut(out: TranscriptIndex, spans: readonly FrozenSpan[], k: number): number {
  const shed = spans.reduce((n, s) => n + (s.last - s.first), 0);
  const m = k - shed;
  return m === 0 ? out.messagesSpan.start : out.messages[m - 1]!.end;
}

describe('applyEpochs(SPANS)', () => {
  it('should shed two requests of a conversation alike up to the first message where they differ', () => {
    fc.assert(
      fc.property(conversationArb(8, 3), latchPointsArb, fc.nat(), fc.nat(), shedPolicyArb, spansDirArb, (requests, points, x, y, policy, spansDir) => {
        const [i, j] = [x % requests.length, y % requests.length].sort((p, q) => p - q) as [number, number];
        const { planned } = latchSpans(requests.slice(0, i + 1), points, policy);
        const spans = frozenSpans(planned);
        const a = requests[i]!;
        const b = requests[j]!;

        const outA = applyEpochs(SPANS, a.bytes, spans, { spansDir, sha256 });
        const outB = applyEpochs(SPANS, b.bytes, spans, { spansDir, sha256 });

        if (spans.length === 0) return;
        expect(outA).toMatchObject({ kind: 'applied', stubs: spans.length, skipped: [] });
        expect(outB).toMatchObject({ kind: 'applied', stubs: spans.length, skipped: [] });
        const inA = indexOf(a.bytes);
        const c = commonPrefixLength(a.bytes, b.bytes);
        let k = 0;
        while (k < inA.messages.length && inA.messages[k]!.end <= c) k++;
        expect(spans[spans.length - 1]!.last).toBeLessThan(k);
        const cutA = outputCut(indexOf(outA.body), spans, k);
        const cutB = outputCut(indexOf(outB.body), spans, k);
        expect(cutA).toBe(cutB);
        expect(sameBytes(outA.body.subarray(0, cutA), outB.body.subarray(0, cutB))).toBe(true);
        // The head: everything up to the end of message 0 is the input's, byte for byte.
        const head = inA.messages[0]!.end;
        expect(sameBytes(outA.body.subarray(0, head), a.bytes.subarray(0, head))).toBe(true);
      }),
    );
  });

  it('should never change bytes outside "messages"', () => {
    fc.assert(
      fc.property(conversationArb(8, 3), latchPointsArb, fc.nat(), shedPolicyArb, spansDirArb, (requests, points, x, policy, spansDir) => {
        const request = requests[x % requests.length]!;
        const spans = frozenSpans(latchSpans(requests, points, policy).planned);

        const out = applyEpochs(SPANS, request.bytes, spans, { spansDir, sha256 }).body;

        const before = indexOf(request.bytes).messagesSpan;
        const after = indexOf(out).messagesSpan;
        expect(sameBytes(out.subarray(0, after.start), request.bytes.subarray(0, before.start))).toBe(true);
        expect(sameBytes(out.subarray(after.end), request.bytes.subarray(before.end))).toBe(true);
      }),
      { numRuns: 100 },
    );
  });
});
