/**
 * Invariant 7, fail open: anything unexpected sends the original bytes and records why, from the
 * closed list of reasons. Whatever the bytes, `rewriteRequest` never throws; a pass-through's body
 * is the input itself; and when damaged bytes are still rewritten, the rewrite is still local
 * (only stubbed content values changed) and still valid JSON whenever its input was.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../src/core/plan-elision.js';
import { PASSTHROUGH_REASONS } from '../src/core/passthrough-reasons.js';
import { rewriteRequest, type RewriteOutcome } from '../src/core/epochs/tool-results/tool-results.js';
import type { FrozenBlock } from '../src/core/epoch-types.js';
import { requestBodyArb, requestFromText } from './arbitraries/index.js';
import { applyByteEdit, byteEditArb, wrongShapeArb } from './arbitraries/mutations.js';
import { sameBytes } from './support/bytes.js';
import { parseBody } from './support/reference.js';
import { elidedDirArb, expectedRewrite, frozenOf, indexOf, planOf, policyArb } from './support/rewrite-support.js';
import { sha256 } from './support/sha256.js';

/** A frozen block no body holds, so that a body without a plan still takes the rewrite's full path. */
const NOWHERE: FrozenBlock = { ordinal: 0, toolUseId: 'toolu_nowhere', bytes: 2000, sha256: '0'.repeat(64), jsonBytes: 2002, jsonSha256: '0'.repeat(64) };

/** The frozen blocks of a generated body's plan, or a block that matches nothing. */
function frozenFor(body: Uint8Array, policy: { keepRecent: number; minBytes: number }): FrozenBlock[] {
  const frozen = planOf(body, policy).map(frozenOf);
  return frozen.length > 0 ? frozen : [NOWHERE];
}

/** What holds of every outcome, whatever went in. */
function expectSane(input: Uint8Array, frozen: readonly FrozenBlock[], outcome: RewriteOutcome, elidedDir: string): void {
  if (outcome.kind === 'passthrough') {
    expect(Object.keys(PASSTHROUGH_REASONS)).toContain(outcome.reason);
    expect(outcome.body).toBe(input);
    return;
  }
  // Rewritten: still local, and valid JSON exactly when the input was.
  const skipped = new Set(outcome.skipped.map((s) => s.ordinal));
  const applied = frozen.filter((b) => !skipped.has(b.ordinal));
  expect(outcome.stubs).toBe(applied.length);
  expect(sameBytes(outcome.body, expectedRewrite(input, indexOf(input), applied, elidedDir))).toBe(true);
  expect(parseBody(outcome.body) !== undefined).toBe(parseBody(input) !== undefined);
}

describe('rewriteRequest', () => {
  it('should never throw on arbitrary bytes, and pass them through as they came', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), elidedDirArb, (bytes, elidedDir) => {
        const copy = bytes.slice();

        const outcome = rewriteRequest(bytes, [NOWHERE], { elidedDir, sha256 });

        expect(outcome.kind).toBe('passthrough');
        expectSane(bytes, [NOWHERE], outcome, elidedDir);
        expect(sameBytes(bytes, copy)).toBe(true);
      }),
    );
  });

  it('should pass a truncated body through as not_json', () => {
    fc.assert(
      fc.property(requestBodyArb(5), fc.nat(), policyArb, elidedDirArb, (request, cut, policy, elidedDir) => {
        const frozen = frozenFor(request.bytes, policy);
        // Cut inside the document, not just its trailing whitespace.
        let end = request.bytes.length;
        while (end > 0 && [0x20, 0x09, 0x0a, 0x0d].includes(request.bytes[end - 1]!)) end--;
        const truncated = request.bytes.slice(0, cut % end);

        const outcome = rewriteRequest(truncated, frozen, { elidedDir, sha256 });

        expect(outcome.kind === 'passthrough' && outcome.reason).toBe('not_json');
        expect(outcome.body).toBe(truncated);
      }),
      // Regression: cut just after `"content":`, where a shape check used to answer first.
      { examples: [[requestFromText('{"messages":[{"role":"user","content":"x"}]}'), 38, DEFAULT_POLICY, '/e']] },
    );
  });

  it('should survive any single-byte edit of a real body: pass through unchanged, or rewrite locally', () => {
    fc.assert(
      fc.property(requestBodyArb(6, 2), byteEditArb, policyArb, elidedDirArb, (request, edit, policy, elidedDir) => {
        const frozen = frozenFor(request.bytes, policy);
        const damaged = applyByteEdit(request.bytes, edit);

        const outcome = rewriteRequest(damaged, frozen, { elidedDir, sha256 });

        expectSane(damaged, frozen, outcome, elidedDir);
      }),
    );
  });

  it('should pass a real body wrapped in a wrong shape through, with the reason for that shape', () => {
    fc.assert(
      fc.property(requestBodyArb(4), wrongShapeArb, policyArb, elidedDirArb, (request, shape, policy, elidedDir) => {
        const frozen = frozenFor(request.bytes, policy);
        const wrapped = shape.wrap(request.bytes);

        const outcome = rewriteRequest(wrapped, frozen, { elidedDir, sha256 });

        expect(outcome.kind === 'passthrough' && outcome.reason).toBe(shape.reason);
        expect(outcome.body).toBe(wrapped);
      }),
    );
  });

  it('should pass through as internal_error when an injected port throws', () => {
    fc.assert(
      fc.property(requestBodyArb(6, 3), policyArb, fc.constantFrom('sha256', 'isAvailable'), elidedDirArb, (request, policy, which, elidedDir) => {
        const frozen = planOf(request.bytes, policy).map(frozenOf);
        fc.pre(frozen.length > 0);
        const boom = (): never => {
          throw new Error('port failed');
        };
        const options = which === 'sha256' ? { elidedDir, sha256: boom } : { elidedDir, sha256, isAvailable: boom };

        const outcome = rewriteRequest(request.bytes, frozen, options);

        expect(outcome.kind === 'passthrough' && outcome.reason).toBe('internal_error');
        expect(outcome.body).toBe(request.bytes);
      }),
      { numRuns: 50 },
    );
  });

  it('should let its self-check stop an output that does not index, when handed a stale index', () => {
    fc.assert(
      fc.property(requestBodyArb(6, 2), byteEditArb, policyArb, elidedDirArb, (request, edit, policy, elidedDir) => {
        const frozen = frozenFor(request.bytes, policy);
        const damaged = applyByteEdit(request.bytes, edit);

        // The caller's index is of the undamaged body: the rewrite trusts it for offsets only.
        const outcome = rewriteRequest(damaged, frozen, { elidedDir, sha256, index: indexOf(request.bytes) });

        if (outcome.kind === 'passthrough') {
          expect(outcome.body).toBe(damaged);
          expect(Object.keys(PASSTHROUGH_REASONS)).toContain(outcome.reason);
        } else {
          expect(
            sameBytes(
              outcome.body,
              expectedRewrite(
                damaged,
                indexOf(damaged),
                frozen.filter((b) => !outcome.skipped.some((s) => s.ordinal === b.ordinal)),
                elidedDir,
              ),
            ),
          ).toBe(true);
        }
      }),
    );
  });
});
