/**
 * The OpenAI indexes and the shared plan against a reference that reads `JSON.parse` output:
 * the same tool outputs (position, item, call id, text or not, cache mark), and the same eligible
 * outputs with the same text, over non-canonical bodies of both APIs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openAiRequestArb } from './arbitraries/openai-transcript.js';
import { sameBytes, utf8 } from './support/bytes.js';
import { openAiIndexOf, openAiPlanOf, referenceEligibleOutputs, referenceOutputs } from './support/openai-support.js';
import { policyArb } from './support/rewrite-support.js';

describe.each(['responses', 'chat'] as const)('the %s index', (api) => {
  it('should find the tool outputs the reference finds', () => {
    fc.assert(
      fc.property(openAiRequestArb(api), (request) => {
        const index = openAiIndexOf(api, request.bytes);

        const reference = referenceOutputs(api, request.value);

        expect(index.toolResults.map((t) => [t.ordinal, t.messageIndex, t.toolUseId, t.textOnly, t.hasCacheControl])).toEqual(
          reference.map((o) => [o.ordinal, o.itemIndex, o.callId, o.text !== undefined, o.marked]),
        );
      }),
    );
  });

  it('should plan exactly the outputs the reference deems eligible, with their text', () => {
    fc.assert(
      fc.property(openAiRequestArb(api), policyArb, (request, policy) => {
        const plan = openAiPlanOf(request, policy);

        const reference = referenceEligibleOutputs(api, request.value, policy);

        expect(plan.map((b) => [b.ordinal, b.toolUseId])).toEqual(reference.map((o) => [o.ordinal, o.callId]));
        for (const [k, block] of plan.entries()) expect(sameBytes(block.text, utf8(reference[k]!.text!))).toBe(true);
      }),
    );
  });
});
