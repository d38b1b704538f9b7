/**
 * Invariant 2, determinism: the same request bytes and the same epochs give the same output bytes,
 * in any process, after any restart. The rewrite reads nothing but its arguments, so "any process"
 * comes down to: no hidden state between calls, no dependence on the order of the frozen list
 * (epochs are unions of blocks, stored and re-read in whatever order), and frozen records that
 * survive the JSON round trip of the state directory.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conversationKey } from '../src/core/conversation-key.js';
import { planElision } from '../src/core/plan-elision.js';
import { rewriteRequest } from '../src/core/epochs/tool-results/tool-results.js';
import type { FrozenBlock } from '../src/core/epoch-types.js';
import { requestBodyArb } from './arbitraries/index.js';
import { sameBytes } from './support/bytes.js';
import { elidedDirArb, frozenOf, indexOf, maskArb, pickBlocks, planOf, policyArb } from './support/rewrite-support.js';
import { sha256 } from './support/sha256.js';

/** The frozen list in another order: sorted by a random key per block. */
function reorder(frozen: readonly FrozenBlock[], keys: readonly number[]): FrozenBlock[] {
  return frozen
    .map((block, i) => ({ block, key: keys[i % Math.max(keys.length, 1)] ?? 0, i }))
    .sort((a, b) => a.key - b.key || b.i - a.i)
    .map((x) => x.block);
}

describe('rewriteRequest', () => {
  it('should give the same bytes for the same body and frozen blocks, in any order, after a JSON round trip', () => {
    fc.assert(
      fc.property(
        requestBodyArb(),
        requestBodyArb(4),
        policyArb,
        maskArb,
        fc.array(fc.nat(), { maxLength: 40 }),
        elidedDirArb,
        (request, other, policy, mask, keys, elidedDir) => {
          const frozen = pickBlocks(planOf(request.bytes, policy).map(frozenOf), mask);
          const options = { elidedDir, sha256 };

          const first = rewriteRequest(request.bytes, frozen, options);
          // Something else in between: no state may carry over from one call to the next.
          rewriteRequest(other.bytes, pickBlocks(planOf(other.bytes, policy).map(frozenOf), mask), options);
          const again = rewriteRequest(request.bytes, frozen, options);
          const reordered = rewriteRequest(request.bytes, reorder(frozen, keys), options);
          const restored = JSON.parse(JSON.stringify(frozen)) as FrozenBlock[];
          const afterRestart = rewriteRequest(request.bytes, restored, options);
          const withIndex = rewriteRequest(request.bytes, frozen, { ...options, index: indexOf(request.bytes) });

          for (const outcome of [again, reordered, afterRestart, withIndex]) {
            expect(outcome.kind).toBe(first.kind);
            expect(sameBytes(outcome.body, first.body)).toBe(true);
            if (outcome.kind === 'applied' && first.kind === 'applied') {
              expect(outcome.stubs).toBe(first.stubs);
              expect(outcome.bytesTaken).toBe(first.bytesTaken);
            }
            expect([...outcome.skipped].sort((a, b) => a.ordinal - b.ordinal)).toEqual([...first.skipped].sort((a, b) => a.ordinal - b.ordinal));
          }
        },
      ),
    );
  });
});

describe('planElision', () => {
  it('should plan the same blocks for the same bytes', () => {
    fc.assert(
      fc.property(requestBodyArb(), policyArb, (request, policy) => {
        const index = indexOf(request.bytes);
        const first = planElision(request.bytes, index, policy, sha256).map(frozenOf);
        expect(planElision(request.bytes, indexOf(request.bytes), policy, sha256).map(frozenOf)).toEqual(first);
      }),
      { numRuns: 100 },
    );
  });
});

describe('conversationKey', () => {
  it('should give the same key for the same bytes and agent id', () => {
    fc.assert(
      fc.property(requestBodyArb(3), fc.option(fc.string(), { nil: undefined }), (request, agentId) => {
        const key = conversationKey(request.bytes, indexOf(request.bytes), agentId, sha256);
        expect(conversationKey(request.bytes.slice(), indexOf(request.bytes), agentId, sha256)).toBe(key);
      }),
      { numRuns: 100 },
    );
  });
});
