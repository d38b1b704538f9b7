/**
 * Invariant 7, fail open, for the OpenAI APIs: whatever the bytes, the indexes, the rewrite, the
 * conversation key and the usage readers never throw; a pass-through's body is the input itself,
 * with a reason from the closed list; and a damaged body that is still rewritten is rewritten
 * locally, and is valid JSON exactly when its input was.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { indexChat } from '../src/core/openai/chat-index.js';
import { indexResponses } from '../src/core/openai/responses-index.js';
import { openAiConversationKey, openAiFirstPrompt } from '../src/core/openai/conversation-key.js';
import { PASSTHROUGH_REASONS } from '../src/core/passthrough-reasons.js';
import { readChatUsage, readResponsesUsage } from '../src/core/openai/openai-usage.js';
import { rewriteRequest, type RewriteOutcome } from '../src/core/epochs/tool-results/tool-results.js';
import type { FrozenBlock } from '../src/core/epoch-types.js';
import { applyByteEdit, byteEditArb } from './arbitraries/mutations.js';
import { openAiRequestArb, type OpenAiApiName, type OpenAiRequest } from './arbitraries/openai-transcript.js';
import { sameBytes } from './support/bytes.js';
import { dialectOf, openAiIndexOf, openAiPlanOf } from './support/openai-support.js';
import { parseBody } from './support/reference.js';
import { elidedDirArb, expectedRewrite, frozenOf, policyArb } from './support/rewrite-support.js';
import { sha256 } from './support/sha256.js';

const NOWHERE: FrozenBlock = { ordinal: 0, toolUseId: 'call_nowhere', bytes: 2000, sha256: '0'.repeat(64), jsonBytes: 2002, jsonSha256: '0'.repeat(64) };

function frozenFor(request: OpenAiRequest, policy: { keepRecent: number; minBytes: number }): FrozenBlock[] {
  const frozen = openAiPlanOf(request, policy).map(frozenOf);
  return frozen.length > 0 ? frozen : [NOWHERE];
}

function expectSane(api: OpenAiApiName, input: Uint8Array, frozen: readonly FrozenBlock[], outcome: RewriteOutcome, elidedDir: string): void {
  if (outcome.kind === 'passthrough') {
    expect(Object.keys(PASSTHROUGH_REASONS)).toContain(outcome.reason);
    expect(outcome.body).toBe(input);
    return;
  }
  const skipped = new Set(outcome.skipped.map((s) => s.ordinal));
  const applied = frozen.filter((b) => !skipped.has(b.ordinal));
  expect(sameBytes(outcome.body, expectedRewrite(input, openAiIndexOf(api, input), applied, elidedDir))).toBe(true);
  expect(parseBody(outcome.body) !== undefined).toBe(parseBody(input) !== undefined);
}

describe.each(['responses', 'chat'] as const)('the %s path', (api) => {
  const index = api === 'responses' ? indexResponses : indexChat;

  it('should never throw on arbitrary bytes: index, key, prompt and rewrite, the rewrite passing them through', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 2000 }),
          fc.json().map((t) => new TextEncoder().encode(t)),
        ),
        elidedDirArb,
        (bytes, elidedDir) => {
          const copy = bytes.slice();

          const indexed = index(bytes);
          if (indexed.kind === 'indexed') {
            openAiConversationKey(bytes, indexed.index, api, sha256, 's');
            openAiFirstPrompt(bytes, indexed.index);
          }
          const outcome = rewriteRequest(bytes, [NOWHERE], { elidedDir, sha256, api: dialectOf(api) });

          expect(outcome.kind).toBe('passthrough');
          expect(outcome.body).toBe(bytes);
          expect(sameBytes(bytes, copy)).toBe(true);
        },
      ),
    );
  });

  it('should pass a truncated body through as not_json', () => {
    fc.assert(
      fc.property(openAiRequestArb(api, 5), fc.nat(), policyArb, elidedDirArb, (request, cut, policy, elidedDir) => {
        let end = request.bytes.length;
        while (end > 0 && [0x20, 0x09, 0x0a, 0x0d].includes(request.bytes[end - 1]!)) end--;
        const truncated = request.bytes.slice(0, cut % end);

        const outcome = rewriteRequest(truncated, frozenFor(request, policy), { elidedDir, sha256, api: dialectOf(api) });

        expect(outcome.kind === 'passthrough' && outcome.reason).toBe('not_json');
        expect(outcome.body).toBe(truncated);
      }),
    );
  });

  it('should survive any single-byte edit of a body: pass through unchanged, or rewrite locally', () => {
    fc.assert(
      fc.property(openAiRequestArb(api, 6, 2), byteEditArb, policyArb, elidedDirArb, (request, edit, policy, elidedDir) => {
        const frozen = frozenFor(request, policy);
        const damaged = applyByteEdit(request.bytes, edit);

        const outcome = rewriteRequest(damaged, frozen, { elidedDir, sha256, api: dialectOf(api) });

        expectSane(api, damaged, frozen, outcome, elidedDir);
      }),
    );
  });
});

describe('readResponsesUsage and readChatUsage', () => {
  it('should never throw, and read a count or nothing, from any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        for (const usage of [readResponsesUsage(value), readChatUsage(value)]) {
          if (usage === undefined) continue;
          expect(Number.isSafeInteger(usage.contextTokens) && usage.contextTokens >= 0).toBe(true);
          expect(usage.cachedTokens).toBeLessThanOrEqual(usage.contextTokens);
        }
      }),
    );
  });
});
