/**
 * The elision plan against docs/design.md's "Eligible block", implemented the simple way on JSON.parse
 * output (support/reference.ts): the same ordinals, ids, byte counts and sha256 of the text (text
 * blocks joined with "\n"), and the raw JSON kept exactly when the content is not the canonical
 * encoding of its text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, planElision } from '../src/core/plan-elision.js';
import { requestBodyArb, requestFromText } from './arbitraries/index.js';
import { sameBytes, utf8 } from './support/bytes.js';
import { parseBody, referenceEligible } from './support/reference.js';
import { indexOf } from './support/rewrite-support.js';
import { sha256 } from './support/sha256.js';

const anyPolicyArb = fc.oneof(
  { weight: 1, arbitrary: fc.constant(DEFAULT_POLICY) },
  { weight: 2, arbitrary: fc.record({ keepRecent: fc.integer({ min: 0, max: 8 }), minBytes: fc.integer({ min: 0, max: 1500 }) }) },
);

describe('planElision', () => {
  it('should plan exactly the blocks a JSON.parse-based reference deems eligible', () => {
    fc.assert(
      fc.property(requestBodyArb(8, 2), anyPolicyArb, (request, policy) => {
        const index = indexOf(request.bytes);

        const plan = planElision(request.bytes, index, policy, sha256);

        const expected = referenceEligible(parseBody(request.bytes)!, policy);
        expect(plan.map((b) => b.ordinal)).toEqual(expected.map((e) => e.ordinal));
        for (const [i, block] of plan.entries()) {
          const ref = expected[i]!;
          const text = utf8(ref.text);
          expect(block.toolUseId).toBe(ref.toolUseId);
          expect(block.bytes).toBe(text.length);
          expect(sameBytes(block.text, text)).toBe(true);
          expect(block.sha256).toBe(sha256(text));
          // The raw JSON is kept exactly when the content bytes are not JSON.stringify(text).
          const content = index.toolResults[block.ordinal]!.content;
          const raw = request.bytes.subarray(content.start, content.end);
          const canonical = sameBytes(raw, utf8(JSON.stringify(ref.text)));
          expect(block.rawSha256 === undefined).toBe(canonical);
          if (block.rawSha256 !== undefined) {
            expect(sameBytes(block.raw!, raw)).toBe(true);
            expect(block.rawSha256).toBe(sha256(raw));
          }
        }
      }),
      {
        // Regressions: the client's placeholder, spelled with an escape or as a text block, is
        // still the placeholder (it only matters under --min-bytes below its 33 bytes).
        examples: [
          [
            requestFromText(
              '{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"[Old tool result content cleared\\u005d"}]},{"role":"user","content":"x"}]}',
            ),
            { keepRecent: 0, minBytes: 0 },
          ],
          [
            requestFromText(
              '{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":"[Old tool result content cleared]"}]}]},{"role":"user","content":"x"}]}',
            ),
            { keepRecent: 0, minBytes: 0 },
          ],
        ],
      },
    );
  });
});
