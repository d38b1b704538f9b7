/**
 * Invariant 1, identity: with no epoch, the bytes sent upstream are the bytes received. And frozen
 * blocks that match nothing in the body change nothing either.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rewriteRequest } from '../src/core/epochs/tool-results/tool-results.js';
import type { FrozenBlock } from '../src/core/epoch-types.js';
import { requestBodyArb } from './arbitraries/index.js';
import { sameBytes } from './support/bytes.js';
import { elidedDirArb, frozenOf, planOf, policyArb } from './support/rewrite-support.js';
import { sha256 } from './support/sha256.js';

const anyBodyArb: fc.Arbitrary<Uint8Array> = fc.oneof(
  requestBodyArb().map((r) => r.bytes),
  fc.uint8Array({ maxLength: 300 }),
  fc.json().map((text) => new TextEncoder().encode(text)),
);

const hexArb = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 64, maxLength: 64 });

/** A frozen block that records something the body does not hold, and the skip it must cause. */
type Perturbation = 'ordinal' | 'id' | 'json-sha256' | 'json-bytes';

function perturb(block: FrozenBlock, how: Perturbation, hex: string): { block: FrozenBlock; reason: string } {
  switch (how) {
    case 'ordinal':
      return { block: { ...block, ordinal: block.ordinal + 10_000 }, reason: 'missing_block' };
    case 'id':
      return { block: { ...block, toolUseId: `${block.toolUseId}x` }, reason: 'id_mismatch' };
    case 'json-sha256':
      // The content's bytes are no longer those the epoch froze (edited, re-escaped, rewound).
      return { block: { ...block, jsonSha256: hex === block.jsonSha256 ? hex.replace(/^./, (c) => (c === '0' ? '1' : '0')) : hex }, reason: 'hash_mismatch' };
    case 'json-bytes':
      return { block: { ...block, jsonBytes: block.jsonBytes + 1 }, reason: 'hash_mismatch' };
  }
}

describe('rewriteRequest', () => {
  it('should pass any bytes through unchanged, as no_epoch, when there are no frozen blocks', () => {
    fc.assert(
      fc.property(anyBodyArb, elidedDirArb, (body, elidedDir) => {
        const outcome = rewriteRequest(body, [], { elidedDir, sha256 });
        expect(outcome.kind).toBe('passthrough');
        expect(outcome.kind === 'passthrough' && outcome.reason).toBe('no_epoch');
        expect(outcome.body).toBe(body);
        expect(outcome.skipped).toEqual([]);
      }),
    );
  });

  it('should pass a body through byte for byte, as epoch_mismatch, when no frozen block matches it', () => {
    fc.assert(
      fc.property(
        requestBodyArb(),
        policyArb,
        fc.array(fc.constantFrom<Perturbation>('ordinal', 'id', 'json-sha256', 'json-bytes'), { minLength: 1, maxLength: 40 }),
        hexArb,
        elidedDirArb,
        (request, policy, perturbations, hex, elidedDir) => {
          const plan = planOf(request.bytes, policy);
          const changed = plan.map((b, i) => perturb(frozenOf(b), perturbations[i % perturbations.length]!, hex));
          // A body with nothing to plan still gets a frozen block: one no tool_result can match.
          const frozen =
            changed.length > 0
              ? changed
              : [{ block: { ordinal: 0, toolUseId: 'toolu_none', bytes: 2000, sha256: hex, jsonBytes: 2002, jsonSha256: hex }, reason: '' }];
          const copy = request.bytes.slice();

          const outcome = rewriteRequest(
            request.bytes,
            frozen.map((f) => f.block),
            { elidedDir, sha256 },
          );

          expect(outcome.kind).toBe('passthrough');
          expect(outcome.kind === 'passthrough' && outcome.reason).toBe('epoch_mismatch');
          expect(outcome.body).toBe(request.bytes);
          expect(sameBytes(request.bytes, copy)).toBe(true);
          if (changed.length > 0) expect(outcome.skipped.map((s) => s.reason)).toEqual(changed.map((c) => c.reason));
        },
      ),
    );
  });

  it('should pass a body through byte for byte, as elided_file_missing, when no frozen block has its file', () => {
    fc.assert(
      fc.property(requestBodyArb(), policyArb, elidedDirArb, (request, policy, elidedDir) => {
        const frozen = planOf(request.bytes, policy).map(frozenOf);
        fc.pre(frozen.length > 0);

        const outcome = rewriteRequest(request.bytes, frozen, { elidedDir, sha256, isAvailable: () => false });

        expect(outcome.kind === 'passthrough' && outcome.reason).toBe('elided_file_missing');
        expect(outcome.body).toBe(request.bytes);
        expect(outcome.skipped.every((s) => s.reason === 'file_missing')).toBe(true);
      }),
    );
  });
});
