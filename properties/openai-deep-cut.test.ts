/**
 * The deeper cut's parts keep the invariants on the OpenAI APIs (Responses and Chat Completions):
 * a call's `arguments` (JSON text whose large strings a stub replaces, every key kept), a custom
 * call's `input`, an assistant message's texts. Over generated conversations with a deep policy of
 * low floors: lossless (every later request inflates back from the files of an earlier epoch, with
 * every part applied), same bytes, the item list's prefix kept between two requests, and an output
 * a checker written apart from the code and the APIs' own rules accept.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyInflate, findPartStubs, findStubs, restoredContent } from '../src/core/epochs/inflate.js';
import type { FrozenBlock } from '../src/core/epoch-types.js';
import { rewriteRequest } from '../src/core/epochs/tool-results/tool-results.js';
import type { TranscriptIndex } from '../src/core/transcript-index-types.js';
import { validateChatMessages } from '../test/support/chat-validator.js';
import { deepCutViolations } from '../test/support/deep-cut-checker.js';
import { validateResponsesInput } from '../test/support/responses-validator.js';
import { openAiConversationArb, type OpenAiApiName } from './arbitraries/openai-transcript.js';
import { commonPrefixLength, sameBytes } from './support/bytes.js';
import { dialectOf, openAiIndexOf, openAiPlanOf } from './support/openai-support.js';
import { deepPolicyArb, elidedDirArb, filesOf, frozenOf, maskArb, pickBlocks } from './support/rewrite-support.js';
import { sha256 } from './support/sha256.js';

function inflateFromFiles(api: OpenAiApiName, out: Uint8Array, frozen: readonly FrozenBlock[], files: ReadonlyMap<string, Uint8Array>): Uint8Array {
  const index = openAiIndexOf(api, out);
  const read = (stub: { readonly bytes: number; readonly sha256: string; readonly rawSha256?: string | undefined }): Uint8Array => {
    const text = files.get(`${stub.sha256}.txt`);
    expect(text).toBeDefined();
    expect(sha256(text!)).toBe(stub.sha256);
    return restoredContent(stub, text!, stub.rawSha256 === undefined ? undefined : files.get(`${stub.rawSha256}.json`));
  };
  const parts = findPartStubs(out, index, frozen).map((f) => ({ found: f, content: read(f.part) }));
  const results = findStubs(out, index).map((f) => ({ found: f, content: read(f.stub) }));
  return applyInflate(out, [...parts, ...results]);
}

function cutAfter(index: TranscriptIndex, k: number): number {
  return k === 0 ? index.messagesSpan.start : index.messages[k - 1]!.end;
}

describe.each(['responses', 'chat'] as const)('the deeper cut on %s bodies', (api) => {
  it('should inflate every later request back to the client body from the files of an earlier epoch, with every part applied', () => {
    let withParts = 0;
    fc.assert(
      fc.property(openAiConversationArb(api, 8, 2), fc.nat(), fc.nat(), deepPolicyArb, maskArb, elidedDirArb, (requests, x, y, policy, mask, elidedDir) => {
        const [p, r] = [x % requests.length, y % requests.length].sort((a, b) => a - b) as [number, number];
        const plan = pickBlocks(openAiPlanOf(requests[p]!, policy), mask);
        const frozen = plan.map(frozenOf);
        if (plan.some((b) => b.part !== undefined)) withParts++;

        const outcome = rewriteRequest(requests[r]!.bytes, frozen, { elidedDir, sha256, api: dialectOf(api) });

        expect(outcome.skipped).toEqual([]);
        if (frozen.length > 0) expect(outcome.kind === 'applied' && outcome.stubs).toBe(frozen.length);
        expect(sameBytes(inflateFromFiles(api, outcome.body, frozen, filesOf(plan)), requests[r]!.bytes)).toBe(true);
      }),
    );
    expect(withParts).toBeGreaterThan(0);
  });

  it('should give the same bytes for the same body and frozen blocks, and keep the item list alike up to where two requests differ', () => {
    fc.assert(
      fc.property(
        openAiConversationArb(api, 8, 3),
        fc.nat(),
        fc.nat(),
        fc.nat(),
        deepPolicyArb,
        maskArb,
        elidedDirArb,
        (requests, x, y, z, policy, mask, elidedDir) => {
          const [i, j] = [x % requests.length, y % requests.length].sort((m, n) => m - n) as [number, number];
          const frozen = pickBlocks(openAiPlanOf(requests[z % requests.length]!, policy), mask).map(frozenOf);
          const options = { elidedDir, sha256, api: dialectOf(api) };
          const [a, b] = [requests[i]!, requests[j]!];

          const outA = rewriteRequest(a.bytes, frozen, options);
          const again = rewriteRequest(a.bytes.slice(), structuredClone(frozen), options);
          const outB = rewriteRequest(b.bytes, frozen, options);

          expect(sameBytes(outA.body, again.body)).toBe(true);
          const listA = openAiIndexOf(api, a.bytes).messagesSpan;
          const listB = openAiIndexOf(api, b.bytes).messagesSpan;
          const c = commonPrefixLength(a.bytes.subarray(listA.start, listA.end), b.bytes.subarray(listB.start, listB.end));
          const itemsA = openAiIndexOf(api, a.bytes).messages;
          let k = 0;
          while (k < itemsA.length && itemsA[k]!.end - listA.start <= c) k++;
          const [oA, oB] = [openAiIndexOf(api, outA.body), openAiIndexOf(api, outB.body)];
          const [cutA, cutB] = [cutAfter(oA, k), cutAfter(oB, k)];
          expect(sameBytes(outA.body.subarray(oA.messagesSpan.start, cutA), outB.body.subarray(oB.messagesSpan.start, cutB))).toBe(true);
        },
      ),
    );
  });

  it('should send what a checker written apart from the code, and the API rules, accept', () => {
    fc.assert(
      fc.property(openAiConversationArb(api, 8, 2), deepPolicyArb, maskArb, elidedDirArb, (requests, policy, mask, elidedDir) => {
        const request = requests[requests.length - 1]!;
        const frozen = pickBlocks(openAiPlanOf(request, policy), mask).map(frozenOf);

        const out = rewriteRequest(request.bytes, frozen, { elidedDir, sha256, api: dialectOf(api) }).body;

        expect(deepCutViolations(request.bytes, out, api)).toEqual([]);
        const rules = (body: Uint8Array): string[] =>
          api === 'responses' ? validateResponsesInput(body).map((v) => `${v.rule} ${v.at}`) : validateChatMessages(body).map((v) => `${v.rule} ${v.param}`);
        const before = new Set(rules(request.bytes));
        expect(rules(out).filter((v) => !before.has(v))).toEqual([]);
      }),
    );
  });
});
