/**
 * Invariants 4 and 6, locality and valid output, for the OpenAI APIs: only the output values of
 * the frozen tool outputs change, each to its stub (the expected bytes are rebuilt independently),
 * and the output parses to the input's value with exactly those values replaced by the stub text:
 * every call and output pair, item and message is still there, and no stub is empty.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderStub } from '../src/core/stub.js';
import { rewriteRequest } from '../src/core/epochs/tool-results/tool-results.js';
import type { FrozenBlock } from '../src/core/epoch-types.js';
import { openAiConversationArb, openAiRequestArb, type OpenAiApiName } from './arbitraries/openai-transcript.js';
import { isJsonArray, isJsonObject, type JsonValue } from './arbitraries/styled-json.js';
import { sameBytes } from './support/bytes.js';
import { dialectOf, openAiIndexOf, openAiPlanOf } from './support/openai-support.js';
import { parseBody } from './support/reference.js';
import { elidedDirArb, expectedRewrite, frozenOf, maskArb, pickBlocks, policyArb } from './support/rewrite-support.js';
import { sha256 } from './support/sha256.js';

/** The parsed body with the `ordinal`th tool output's value set to each block's stub text. */
function withStubs(api: OpenAiApiName, value: JsonValue, applied: readonly FrozenBlock[], elidedDir: string): JsonValue {
  const copy = structuredClone(value) as Record<string, JsonValue>;
  const list = copy[api === 'responses' ? 'input' : 'messages'];
  if (!isJsonArray(list)) return copy;
  const stubs = new Map(applied.map((b) => [b.ordinal, renderStub(b, elidedDir)]));
  let ordinal = 0;
  for (const item of list) {
    if (!isJsonObject(item)) continue;
    const isOutput = api === 'responses' ? item['type'] === 'function_call_output' || item['type'] === 'custom_tool_call_output' : item['role'] === 'tool';
    if (!isOutput) continue;
    const stub = stubs.get(ordinal++);
    if (stub !== undefined) (item as Record<string, JsonValue>)[api === 'responses' ? 'output' : 'content'] = stub;
  }
  return copy;
}

describe.each(['responses', 'chat'] as const)('rewriteRequest on %s bodies', (api) => {
  it('should change only the output values of the frozen blocks, each to its stub', () => {
    fc.assert(
      fc.property(openAiRequestArb(api, 8, 3), policyArb, maskArb, elidedDirArb, (request, policy, mask, elidedDir) => {
        const frozen = pickBlocks(openAiPlanOf(request, policy).map(frozenOf), mask);
        fc.pre(frozen.length > 0);

        const outcome = rewriteRequest(request.bytes, frozen, { elidedDir, sha256, api: dialectOf(api) });

        expect(outcome.kind).toBe('applied');
        expect(outcome.skipped).toEqual([]);
        expect(sameBytes(outcome.body, expectedRewrite(request.bytes, openAiIndexOf(api, request.bytes), frozen, elidedDir))).toBe(true);
        expect(parseBody(outcome.body)).toEqual(withStubs(api, request.value, frozen, elidedDir));
      }),
    );
  });

  it('should stub exactly the frozen blocks a later request still holds, in any request of the conversation', () => {
    fc.assert(
      fc.property(openAiConversationArb(api, 8, 3), fc.nat(), policyArb, maskArb, elidedDirArb, (requests, x, policy, mask, elidedDir) => {
        const request = requests[x % requests.length]!;
        const frozen = pickBlocks(openAiPlanOf(requests[requests.length - 1]!, policy).map(frozenOf), mask);
        fc.pre(frozen.length > 0);

        const outcome = rewriteRequest(request.bytes, frozen, { elidedDir, sha256, api: dialectOf(api) });

        for (const s of outcome.skipped) expect(s.reason).toBe('missing_block');
        const skipped = new Set(outcome.skipped.map((s) => s.ordinal));
        const applied = frozen.filter((b) => !skipped.has(b.ordinal));
        if (applied.length === 0) expect(outcome.body).toBe(request.bytes);
        else expect(parseBody(outcome.body)).toEqual(withStubs(api, request.value, applied, elidedDir));
      }),
    );
  });
});
