/**
 * The deeper cut's parts (old tool inputs' strings, old assistant texts: docs/rescue.md) keep the
 * invariants on the Messages API, over generated conversations (hostile text, non-canonical JSON,
 * thinking, system messages) with a deep policy of low floors, so that most have parts:
 * - lossless: the output inflates to the client's body byte for byte from the planned files alone
 *   (each named by the sha256 of its own bytes), and a part frozen on an earlier request applies
 *   to every later one;
 * - same bytes: the same body and frozen blocks give the same output, from a copy of the list too;
 * - prefix kept: two requests of a conversation are rewritten alike up to the first message where
 *   they differ;
 * - valid output: a checker written apart from the code (test/support/deep-cut-checker.ts) and the
 *   Messages API's rules (test/support/messages-validator.ts) accept it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyInflate, findPartStubs, findStubs, restoredContent } from '../src/core/epochs/inflate.js';
import type { FrozenBlock } from '../src/core/epoch-types.js';
import type { PlannedBlock } from '../src/core/plan-elision.js';
import { rewriteRequest } from '../src/core/epochs/tool-results/tool-results.js';
import type { TranscriptIndex } from '../src/core/transcript-index-types.js';
import { deepCutViolations } from '../test/support/deep-cut-checker.js';
import { validateMessagesRequest } from '../test/support/messages-validator.js';
import { conversationArb } from './arbitraries/index.js';
import { commonPrefixLength, sameBytes } from './support/bytes.js';
import { deepPolicyArb, elidedDirArb, filesOf, frozenOf, indexOf, maskArb, pickBlocks, planOf } from './support/rewrite-support.js';
import { sha256 } from './support/sha256.js';

/** The body rebuilt from a rewritten one and the files alone; every stub names a file that hashes to its name. */
function inflateFromFiles(out: Uint8Array, frozen: readonly FrozenBlock[], files: ReadonlyMap<string, Uint8Array>): Uint8Array {
  const index = indexOf(out);
  const read = (stub: { readonly bytes: number; readonly sha256: string; readonly rawSha256?: string | undefined }): Uint8Array => {
    const text = files.get(`${stub.sha256}.txt`);
    expect(text).toBeDefined();
    expect(sha256(text!)).toBe(stub.sha256);
    expect(text!.length).toBe(stub.bytes);
    const raw = stub.rawSha256 === undefined ? undefined : files.get(`${stub.rawSha256}.json`);
    if (stub.rawSha256 !== undefined) expect(sha256(raw!)).toBe(stub.rawSha256);
    return restoredContent(stub, text!, raw);
  };
  const parts = findPartStubs(out, index, frozen).map((f) => ({ found: f, content: read(f.part) }));
  const results = findStubs(out, index).map((f) => ({ found: f, content: read(f.stub) }));
  return applyInflate(out, [...parts, ...results]);
}

function cutAfter(index: TranscriptIndex, k: number): number {
  return k === 0 ? index.messagesSpan.start : index.messages[k - 1]!.end;
}

const partsOf = (plan: readonly PlannedBlock[]): number => plan.filter((b) => b.part !== undefined).length;

describe('the deeper cut (Messages)', () => {
  it('should inflate every later request back to the client body from the files of an earlier epoch, with every part applied', () => {
    let withParts = 0;
    fc.assert(
      fc.property(conversationArb(8, 2), fc.nat(), fc.nat(), deepPolicyArb, maskArb, elidedDirArb, (requests, x, y, policy, mask, elidedDir) => {
        const [p, r] = [x % requests.length, y % requests.length].sort((a, b) => a - b) as [number, number];
        const plan = pickBlocks(planOf(requests[p]!.bytes, policy), mask);
        const frozen = plan.map(frozenOf);
        if (partsOf(plan) > 0) withParts++;

        const outcome = rewriteRequest(requests[r]!.bytes, frozen, { elidedDir, sha256 });

        expect(outcome.skipped).toEqual([]);
        if (frozen.length > 0) expect(outcome.kind === 'applied' && outcome.stubs).toBe(frozen.length);
        expect(sameBytes(inflateFromFiles(outcome.body, frozen, filesOf(plan)), requests[r]!.bytes)).toBe(true);
      }),
    );
    // The generators must reach the parts: a property that never meets one proves nothing.
    expect(withParts).toBeGreaterThan(0);
  });

  it('should give the same bytes for the same body and frozen blocks, from a copy of the list too', () => {
    fc.assert(
      fc.property(conversationArb(8, 2), deepPolicyArb, maskArb, elidedDirArb, (requests, policy, mask, elidedDir) => {
        const body = requests[requests.length - 1]!.bytes;
        const frozen = pickBlocks(planOf(body, policy), mask).map(frozenOf);

        const a = rewriteRequest(body, frozen, { elidedDir, sha256 });
        const b = rewriteRequest(body.slice(), structuredClone(frozen), { elidedDir, sha256 });

        expect(sameBytes(a.body, b.body)).toBe(true);
      }),
    );
  });

  it('should rewrite two requests of a conversation alike up to the first message where they differ', () => {
    fc.assert(
      fc.property(conversationArb(8, 3), fc.nat(), fc.nat(), fc.nat(), deepPolicyArb, maskArb, elidedDirArb, (requests, x, y, z, policy, mask, elidedDir) => {
        const [i, j] = [x % requests.length, y % requests.length].sort((m, n) => m - n) as [number, number];
        const frozen = pickBlocks(planOf(requests[z % requests.length]!.bytes, policy), mask).map(frozenOf);
        const [a, b] = [requests[i]!.bytes, requests[j]!.bytes];

        const outA = rewriteRequest(a, frozen, { elidedDir, sha256 });
        const outB = rewriteRequest(b, frozen, { elidedDir, sha256 });

        const inIndex = indexOf(a);
        const c = commonPrefixLength(a, b);
        let k = 0;
        while (k < inIndex.messages.length && inIndex.messages[k]!.end <= c) k++;
        const cutA = cutAfter(indexOf(outA.body), k);
        expect(cutA).toBe(cutAfter(indexOf(outB.body), k));
        expect(sameBytes(outA.body.subarray(0, cutA), outB.body.subarray(0, cutA))).toBe(true);
      }),
    );
  });

  it('should send what a checker written apart from the code, and the API rules, accept', () => {
    fc.assert(
      fc.property(conversationArb(8, 2), deepPolicyArb, maskArb, elidedDirArb, (requests, policy, mask, elidedDir) => {
        const body = requests[requests.length - 1]!.bytes;
        const frozen = pickBlocks(planOf(body, policy), mask).map(frozenOf);

        const out = rewriteRequest(body, frozen, { elidedDir, sha256 }).body;

        expect(deepCutViolations(body, out, 'messages')).toEqual([]);
        // Nothing the client alone would have had accepted is refused (a stub may take a fault away).
        const before = new Set(validateMessagesRequest(body).map((v) => `${v.rule} ${v.at}`));
        expect(validateMessagesRequest(out).filter((v) => !before.has(`${v.rule} ${v.at}`))).toEqual([]);
      }),
    );
  });
});
