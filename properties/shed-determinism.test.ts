/**
 * Shed mode, determinism: the same transcript and the same frozen spans give the same bytes,
 * from fresh span objects and fresh plans alike (nothing depends on a cache or a clock).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planShed } from '../src/core/shed/plan-span.js';
import { applyEpochs } from '../src/core/epochs/apply.js';
import { SPANS } from '../src/core/epochs/spans/spans.js';
import { readMessagesFacts } from '../src/core/shed/message-facts.js';
import { conversationArb } from './arbitraries/index.js';
import { sameBytes } from './support/bytes.js';
import { frozenSpans, latchPointsArb, latchSpans, shedPolicyArb, spansDirArb } from './support/shed-support.js';
import { sha256 } from './support/sha256.js';

describe('planShed and applyEpochs(SPANS)', () => {
  it('should give the same plan and the same bytes for the same transcript', () => {
    fc.assert(
      fc.property(conversationArb(8, 3), latchPointsArb, fc.nat(), shedPolicyArb, spansDirArb, (requests, points, x, policy, spansDir) => {
        const request = requests[x % requests.length]!;
        const { planned } = latchSpans(requests, points, policy);

        const a = applyEpochs(SPANS, request.bytes, frozenSpans(planned), { spansDir, sha256 });
        const b = applyEpochs(SPANS, request.bytes.slice(), frozenSpans(planned), { spansDir, sha256 });
        const again = latchSpans(requests, points, policy).planned;

        expect(a.kind).toBe(b.kind);
        expect(sameBytes(a.body, b.body)).toBe(true);
        expect(frozenSpans(again)).toEqual(frozenSpans(planned));
        expect(planShed(request.bytes, [], { readFacts: readMessagesFacts, sha256, policy })).toEqual(
          planShed(request.bytes.slice(), [], { readFacts: readMessagesFacts, sha256, policy }),
        );
      }),
    );
  });
});
