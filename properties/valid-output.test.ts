/**
 * Invariant 6, valid output: the output parses, keeps every tool_use/tool_result pair, keeps
 * `thinking` blocks and `system`/`tools` untouched, and has no empty content. Checked against
 * JSON.parse, not the core's own index: the parsed output must equal the parsed input with each
 * elided block's `content` replaced by its stub text, and nothing else.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderStub } from '../src/core/stub.js';
import { rewriteRequest } from '../src/core/epochs/tool-results/tool-results.js';
import { isJsonArray, isJsonObject, requestBodyArb, type JsonObject, type JsonValue } from './arbitraries/index.js';
import { sameBytes } from './support/bytes.js';
import { messagesOf, parseBody, walkToolResults } from './support/reference.js';
import { elidedDirArb, frozenOf, indexOf, maskArb, pickBlocks, planOf, policyArb } from './support/rewrite-support.js';
import { sha256 } from './support/sha256.js';

/** Blocks of a given type, in order, across all messages. */
function blocksOfType(body: JsonValue, types: readonly string[]): JsonObject[] {
  const out: JsonObject[] = [];
  for (const message of messagesOf(body)) {
    const content = isJsonObject(message) ? message['content'] : undefined;
    if (!isJsonArray(content)) continue;
    for (const block of content) if (isJsonObject(block) && types.includes(String(block['type']))) out.push(block);
  }
  return out;
}

/** The input with each elided block's content replaced by its stub text (built from JSON, not bytes). */
function withStubs(input: JsonValue, stubs: ReadonlyMap<number, string>): JsonValue {
  const results = walkToolResults(input);
  const byPlace = new Map(results.filter((r) => stubs.has(r.ordinal)).map((r) => [`${r.messageIndex}/${r.blockIndex}`, stubs.get(r.ordinal)!]));
  if (!isJsonObject(input)) return input;
  return {
    ...input,
    messages: messagesOf(input).map((message, m) => {
      if (!isJsonObject(message) || !isJsonArray(message['content'])) return message;
      return {
        ...message,
        content: message['content'].map((block, b) => {
          const stub = byPlace.get(`${m}/${b}`);
          return stub === undefined || !isJsonObject(block) ? block : { ...block, content: stub };
        }),
      };
    }),
  };
}

/** Whether a content value is empty: "", [] (an absent tool_result content is not a value). */
function isEmptyContent(content: JsonValue | undefined): boolean {
  return content === '' || (isJsonArray(content) && content.length === 0);
}

describe('rewriteRequest', () => {
  it('should produce a body that parses to the input with only the elided contents replaced by stubs', () => {
    fc.assert(
      fc.property(requestBodyArb(8, 4), policyArb, maskArb, elidedDirArb, (request, policy, mask, elidedDir) => {
        const frozen = pickBlocks(planOf(request.bytes, policy).map(frozenOf), mask);

        const outcome = rewriteRequest(request.bytes, frozen, { elidedDir, sha256 });

        const input = parseBody(request.bytes)!;
        const output = parseBody(outcome.body);
        expect(output).toBeDefined();
        expect(output).toEqual(withStubs(input, new Map(frozen.map((b) => [b.ordinal, renderStub(b, elidedDir)]))));
        // Pairs: the same tool_use ids and tool_result ids, in the same order, each result
        // answering a tool_use of the message before it.
        const ids = (body: JsonValue, type: string, key: string): JsonValue[] => blocksOfType(body, [type]).map((b) => b[key] ?? null);
        expect(ids(output!, 'tool_use', 'id')).toEqual(ids(input, 'tool_use', 'id'));
        expect(ids(output!, 'tool_result', 'tool_use_id')).toEqual(ids(input, 'tool_result', 'tool_use_id'));
        const messages = messagesOf(output!);
        for (const r of walkToolResults(output!)) {
          const previous = messages[r.messageIndex - 1];
          const uses = isJsonObject(previous) && isJsonArray(previous['content']) ? previous['content'] : [];
          expect(uses.some((u) => isJsonObject(u) && u['type'] === 'tool_use' && u['id'] === r.toolUseId)).toBe(true);
        }
        // Thinking blocks, system and tools: equal as values, and every thinking block's bytes
        // (signature included) unchanged.
        expect(blocksOfType(output!, ['thinking', 'redacted_thinking'])).toEqual(blocksOfType(input, ['thinking', 'redacted_thinking']));
        expect(isJsonObject(output) && output['system']).toEqual(isJsonObject(input) && input['system']);
        expect(isJsonObject(output) && output['tools']).toEqual(isJsonObject(input) && input['tools']);
        const before = indexOf(request.bytes);
        const after = indexOf(outcome.body);
        for (const [m, message] of before.messages.entries()) {
          for (const [b, block] of message.blocks.entries()) {
            if (block.type !== 'thinking' && block.type !== 'redacted_thinking') continue;
            const now = after.messages[m]!.blocks[b]!;
            expect(sameBytes(outcome.body.subarray(now.start, now.end), request.bytes.subarray(block.start, block.end))).toBe(true);
          }
        }
        // No empty content: none in any message, none in any tool_result.
        for (const message of messages) expect(isEmptyContent(isJsonObject(message) ? message['content'] : undefined)).toBe(false);
        for (const r of walkToolResults(output!)) expect(isEmptyContent(r.block['content'])).toBe(false);
      }),
    );
  });
});
