/**
 * Invariant 2, determinism, for the OpenAI APIs: the same request bytes and the same epochs give
 * the same output bytes, whatever objects carry them (a restarted process reads its epochs afresh).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rewriteRequest } from '../src/core/epochs/tool-results/tool-results.js';
import { openAiConversationArb } from './arbitraries/openai-transcript.js';
import { sameBytes } from './support/bytes.js';
import { dialectOf, openAiPlanOf } from './support/openai-support.js';
import { elidedDirArb, frozenOf, maskArb, pickBlocks, policyArb } from './support/rewrite-support.js';
import { sha256 } from './support/sha256.js';

describe.each(['responses', 'chat'] as const)('rewriteRequest on %s bodies', (api) => {
  it('should give the same bytes for the same body and epochs, from fresh copies of both', () => {
    fc.assert(
      fc.property(openAiConversationArb(api, 8, 2), fc.nat(), fc.nat(), policyArb, maskArb, elidedDirArb, (requests, x, y, policy, mask, elidedDir) => {
        const request = requests[x % requests.length]!;
        const frozen = pickBlocks(openAiPlanOf(requests[y % requests.length]!, policy).map(frozenOf), mask);
        const options = { elidedDir, sha256, api: dialectOf(api) };

        const first = rewriteRequest(request.bytes, frozen, options);
        const second = rewriteRequest(
          request.bytes.slice(),
          frozen.map((b) => ({ ...b })),
          options,
        );
        const again = rewriteRequest(request.bytes, frozen, options);

        expect(second.kind).toBe(first.kind);
        expect(sameBytes(second.body, first.body)).toBe(true);
        expect(sameBytes(again.body, first.body)).toBe(true);
        expect(second.skipped).toEqual(first.skipped);
      }),
    );
  });
});
