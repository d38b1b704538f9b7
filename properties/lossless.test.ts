/**
 * Invariant 5, lossless: every stub names a file that exists and whose sha256 is its name, and the
 * original request is rebuilt byte for byte from the rewritten one and the elided files. The
 * "state directory" here is the map of files the plan says to write: `<sha256>.txt` (the text)
 * and, for content that is not the canonical encoding of its text, `<rawSha256>.json` (its bytes).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyInflate, findStubs, restoredContent } from '../src/core/epochs/inflate.js';
import { rewriteRequest } from '../src/core/epochs/tool-results/tool-results.js';
import type { PlannedBlock } from '../src/core/plan-elision.js';
import { conversationArb, requestBodyArb } from './arbitraries/index.js';
import { sameBytes } from './support/bytes.js';
import { elidedDirArb, filesOf, frozenOf, indexOf, maskArb, pickBlocks, planOf, policyArb } from './support/rewrite-support.js';
import { sha256 } from './support/sha256.js';

/** Rewrites with the planned blocks, then inflates the output from the files alone; returns both. */
function roundTrip(body: Uint8Array, planned: readonly PlannedBlock[], elidedDir: string): { rewritten: Uint8Array; inflated: Uint8Array; stubs: number } {
  const files = filesOf(planned);
  const outcome = rewriteRequest(body, planned.map(frozenOf), { elidedDir, sha256, isAvailable: (b) => files.has(`${b.sha256}.txt`) });
  const found = findStubs(outcome.body, indexOf(outcome.body));
  const restored = found.map((f) => {
    const text = files.get(`${f.stub.sha256}.txt`);
    const raw = f.stub.rawSha256 === undefined ? undefined : files.get(`${f.stub.rawSha256}.json`);
    // Every stub names files that exist, each named by the sha256 of its own bytes.
    expect(text).toBeDefined();
    expect(sha256(text!)).toBe(f.stub.sha256);
    expect(text!.length).toBe(f.stub.bytes);
    if (f.stub.rawSha256 !== undefined) {
      expect(raw).toBeDefined();
      expect(sha256(raw!)).toBe(f.stub.rawSha256);
    }
    return { found: f, content: restoredContent(f.stub, text!, raw) };
  });
  return { rewritten: outcome.body, inflated: applyInflate(outcome.body, restored), stubs: outcome.kind === 'applied' ? outcome.stubs : 0 };
}

describe('inflate', () => {
  it('should rebuild the original body byte for byte from the rewritten one and the elided files', () => {
    fc.assert(
      fc.property(requestBodyArb(8, 4), policyArb, maskArb, elidedDirArb, (request, policy, mask, elidedDir) => {
        const planned = pickBlocks(planOf(request.bytes, policy), mask);

        const { rewritten, inflated, stubs } = roundTrip(request.bytes, planned, elidedDir);

        expect(stubs).toBe(planned.length);
        expect(findStubs(rewritten, indexOf(rewritten))).toHaveLength(planned.length);
        expect(sameBytes(inflated, request.bytes)).toBe(true);
      }),
    );
  });

  it('should rebuild every later request of the conversation from the files of an earlier epoch', () => {
    fc.assert(
      fc.property(conversationArb(8, 3), fc.nat(), fc.nat(), policyArb, elidedDirArb, (requests, x, y, policy, elidedDir) => {
        const [p, r] = [x % requests.length, y % requests.length].sort((a, b) => a - b) as [number, number];
        const planned = planOf(requests[p]!.bytes, policy);

        const { inflated, stubs } = roundTrip(requests[r]!.bytes, planned, elidedDir);

        expect(stubs).toBe(planned.length);
        expect(sameBytes(inflated, requests[r]!.bytes)).toBe(true);
      }),
    );
  });
});
