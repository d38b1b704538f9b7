/** The OpenAI generators make what they say: bodies that parse to their value, index, and only grow by appending. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openAiConversationArb } from './arbitraries/openai-transcript.js';
import { commonPrefixLength } from './support/bytes.js';
import { openAiIndexOf } from './support/openai-support.js';
import { parseBody } from './support/reference.js';

describe('openAiConversationArb', () => {
  it('should make requests that parse to their value and index, each with its item count', () => {
    fc.assert(
      fc.property(openAiConversationArb(), (requests) => {
        for (const request of requests) {
          expect(parseBody(request.bytes)).toEqual(request.value);
          expect(openAiIndexOf(request.api, request.bytes).messages).toHaveLength(request.itemCount);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('should only append items: every item of a request is byte-identical in the next', () => {
    fc.assert(
      fc.property(openAiConversationArb(undefined, 6, 2), (requests) => {
        for (let r = 1; r < requests.length; r++) {
          const before = openAiIndexOf(requests[r - 1]!.api, requests[r - 1]!.bytes);
          const after = openAiIndexOf(requests[r]!.api, requests[r]!.bytes);
          for (const [i, item] of before.messages.entries()) {
            const now = after.messages[i]!;
            expect(now.end - now.start).toBe(item.end - item.start);
            const a = requests[r - 1]!.bytes.subarray(item.start, item.end);
            const b = requests[r]!.bytes.subarray(now.start, now.end);
            expect(commonPrefixLength(a, b)).toBe(a.length);
          }
        }
      }),
      { numRuns: 100 },
    );
  });
});
