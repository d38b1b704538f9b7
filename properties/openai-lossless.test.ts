/**
 * Invariant 5, lossless, for the OpenAI APIs: every stub names files that exist and whose sha256
 * is their name, and the original request is rebuilt byte for byte from the rewritten one and the
 * files the plan says to write (list-of-parts outputs keep their exact JSON as `<sha256>.json`).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyInflate, findStubs, restoredContent } from '../src/core/epochs/inflate.js';
import { rewriteRequest } from '../src/core/epochs/tool-results/tool-results.js';
import type { PlannedBlock } from '../src/core/plan-elision.js';
import { openAiConversationArb, openAiRequestArb, type OpenAiApiName } from './arbitraries/openai-transcript.js';
import { sameBytes } from './support/bytes.js';
import { dialectOf, openAiIndexOf, openAiPlanOf } from './support/openai-support.js';
import { elidedDirArb, filesOf, frozenOf, maskArb, pickBlocks, policyArb } from './support/rewrite-support.js';
import { sha256 } from './support/sha256.js';

function roundTrip(api: OpenAiApiName, body: Uint8Array, planned: readonly PlannedBlock[], elidedDir: string): { inflated: Uint8Array; stubs: number } {
  const files = filesOf(planned);
  const outcome = rewriteRequest(body, planned.map(frozenOf), { elidedDir, sha256, api: dialectOf(api), isAvailable: (b) => files.has(`${b.sha256}.txt`) });
  const found = findStubs(outcome.body, openAiIndexOf(api, outcome.body));
  const restored = found.map((f) => {
    const text = files.get(`${f.stub.sha256}.txt`);
    const raw = f.stub.rawSha256 === undefined ? undefined : files.get(`${f.stub.rawSha256}.json`);
    expect(text).toBeDefined();
    expect(sha256(text!)).toBe(f.stub.sha256);
    if (f.stub.rawSha256 !== undefined) expect(sha256(raw!)).toBe(f.stub.rawSha256);
    return { found: f, content: restoredContent(f.stub, text!, raw) };
  });
  return { inflated: applyInflate(outcome.body, restored), stubs: found.length };
}

describe.each(['responses', 'chat'] as const)('inflate on %s bodies', (api) => {
  it('should rebuild the original body byte for byte from the rewritten one and the elided files', () => {
    fc.assert(
      fc.property(openAiRequestArb(api, 8, 3), policyArb, maskArb, elidedDirArb, (request, policy, mask, elidedDir) => {
        const planned = pickBlocks(openAiPlanOf(request, policy), mask);

        const { inflated, stubs } = roundTrip(api, request.bytes, planned, elidedDir);

        expect(stubs).toBe(planned.length);
        expect(sameBytes(inflated, request.bytes)).toBe(true);
      }),
    );
  });

  it('should rebuild every later request of the conversation from the files of an earlier epoch', () => {
    fc.assert(
      fc.property(openAiConversationArb(api, 8, 3), fc.nat(), fc.nat(), policyArb, elidedDirArb, (requests, x, y, policy, elidedDir) => {
        const [p, r] = [x % requests.length, y % requests.length].sort((a, b) => a - b) as [number, number];
        const planned = openAiPlanOf(requests[p]!, policy);

        const { inflated, stubs } = roundTrip(api, requests[r]!.bytes, planned, elidedDir);

        expect(stubs).toBe(planned.length);
        expect(sameBytes(inflated, requests[r]!.bytes)).toBe(true);
      }),
    );
  });
});
