/**
 * Invariant 1, identity, for the OpenAI APIs: with no epoch the bytes go upstream as they came,
 * and frozen blocks that match nothing in the body change nothing either.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rewriteRequest } from '../src/core/epochs/tool-results/tool-results.js';
import type { FrozenBlock } from '../src/core/epoch-types.js';
import { openAiRequestArb } from './arbitraries/openai-transcript.js';
import { sameBytes } from './support/bytes.js';
import { dialectOf, openAiPlanOf } from './support/openai-support.js';
import { elidedDirArb, frozenOf, policyArb } from './support/rewrite-support.js';
import { sha256 } from './support/sha256.js';

describe.each(['responses', 'chat'] as const)('rewriteRequest on %s bodies', (api) => {
  const anyBodyArb: fc.Arbitrary<Uint8Array> = fc.oneof(
    openAiRequestArb(api).map((r) => r.bytes),
    fc.uint8Array({ maxLength: 300 }),
    fc.json().map((t) => new TextEncoder().encode(t)),
  );

  it('should pass any bytes through unchanged, as no_epoch, when there are no frozen blocks', () => {
    fc.assert(
      fc.property(anyBodyArb, elidedDirArb, (body, elidedDir) => {
        const outcome = rewriteRequest(body, [], { elidedDir, sha256, api: dialectOf(api) });

        expect(outcome.kind === 'passthrough' && outcome.reason).toBe('no_epoch');
        expect(outcome.body).toBe(body);
      }),
    );
  });

  it('should pass a body through byte for byte, as epoch_mismatch, when no frozen block matches it', () => {
    fc.assert(
      fc.property(openAiRequestArb(api), policyArb, fc.constantFrom('ordinal', 'id', 'json'), (request, policy, how) => {
        const plan = openAiPlanOf(request, policy).map(frozenOf);
        const nowhere: FrozenBlock = { ordinal: 0, toolUseId: 'call_none', bytes: 2000, sha256: '0'.repeat(64), jsonBytes: 2002, jsonSha256: '0'.repeat(64) };
        const frozen =
          plan.length === 0
            ? [nowhere]
            : plan.map((b) =>
                how === 'ordinal'
                  ? { ...b, ordinal: b.ordinal + 10_000 }
                  : how === 'id'
                    ? { ...b, toolUseId: `${b.toolUseId}x` }
                    : { ...b, jsonSha256: '0'.repeat(64) },
              );
        const copy = request.bytes.slice();

        const outcome = rewriteRequest(request.bytes, frozen, { elidedDir: '/e', sha256, api: dialectOf(api) });

        expect(outcome.kind === 'passthrough' && outcome.reason).toBe('epoch_mismatch');
        expect(outcome.body).toBe(request.bytes);
        expect(sameBytes(request.bytes, copy)).toBe(true);
      }),
    );
  });
});
