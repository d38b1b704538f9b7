/**
 * Shed mode, lossless: every stub names a span whose bytes hash to its handle, and the original
 * request is rebuilt byte for byte from the shed one and the spans' bytes alone, for the request
 * the spans were planned on and every later one.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyInflate } from '../src/core/epochs/inflate.js';
import { findSpanStubs } from '../src/core/epochs/spans/find-span-stubs.js';
import { applyEpochs } from '../src/core/epochs/apply.js';
import { SPANS } from '../src/core/epochs/spans/spans.js';
import { conversationArb } from './arbitraries/index.js';
import { sameBytes } from './support/bytes.js';
import { indexOf } from './support/rewrite-support.js';
import { frozenSpans, latchPointsArb, latchSpans, shedPolicyArb, spansDirArb } from './support/shed-support.js';
import { sha256 } from './support/sha256.js';

describe('inflate of shed spans', () => {
  it("should rebuild every later request byte for byte from the stubs and the spans' files", () => {
    fc.assert(
      fc.property(conversationArb(8, 3), latchPointsArb, fc.nat(), shedPolicyArb, spansDirArb, (requests, points, x, policy, spansDir) => {
        const { planned, at } = latchSpans(requests, points, policy);
        const r = Math.max(x % requests.length, at[at.length - 1] ?? 0);
        const files = new Map(planned.map((s) => [s.sha256, s.text]));
        const request = requests[r]!;

        const out = applyEpochs(SPANS, request.bytes, frozenSpans(planned), { spansDir, sha256, isAvailable: (s) => files.has(s.sha256) });
        const found = findSpanStubs(out.body, indexOf(out.body));
        const inflated = applyInflate(
          out.body,
          found.map((f) => {
            const span = files.get(f.stub.sha256);
            expect(span).toBeDefined();
            expect(sha256(span!)).toBe(f.stub.sha256);
            expect(span!.length).toBe(f.stub.bytes);
            return { found: f, content: span! };
          }),
        );

        expect(found).toHaveLength(planned.length);
        expect(sameBytes(inflated, request.bytes)).toBe(true);
      }),
    );
  });
});
