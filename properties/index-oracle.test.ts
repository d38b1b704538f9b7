/**
 * `indexTranscript` against a simpler implementation: JSON.parse and a walk of what it returns.
 *
 * Oracles, and what they leave out on purpose:
 * - Bytes that are not valid UTF-8 are not JSON text (RFC 8259 §8.1), so JSON.parse has nothing
 *   to say on them; the strict oracle decodes with `fatal: true` and skips them.
 * - A UTF-8 BOM is decoded with `ignoreBOM: true`, i.e. kept as U+FEFF, which JSON.parse refuses
 *   just as the byte scanner refuses 0xEF (TextDecoder's default would drop it silently and make
 *   JSON.parse accept bytes the scanner rightly rejects).
 * - JSON.parse accepts any nesting depth; the scanner refuses more than MAX_JSON_DEPTH (512).
 *   No generator here nests that deep; the difference is kept as an example below.
 * - The structural oracle: the scanner checks JSON's structure in full but (since the scan was
 *   made cheap) leaves the *contents* of strings it does not read to the upstream. So "is it
 *   JSON?" is split in two: `not_json` must come exactly when the structure is broken (JSON.parse
 *   fails even after every string's contents are made valid), and, separately, an indexed body
 *   should be strict JSON (docs/design.md invariants 6 and 7).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { indexTranscript } from '../src/core/messages/transcript-index.js';
import { MAX_JSON_DEPTH } from '../src/core/json-scan.js';
import { isJsonArray, isJsonObject, requestBodyArb, type JsonValue } from './arbitraries/index.js';
import { applyByteEdit, byteEditArb, wrongShapeArb } from './arbitraries/mutations.js';
import { utf8 } from './support/bytes.js';
import { isStructurallyJson, messagesOf, parseBody, walkToolResults } from './support/reference.js';

/** Bodies of every kind: real, damaged, wrapped, arbitrary JSON, arbitrary bytes. */
const bodyArb: fc.Arbitrary<Uint8Array> = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(requestBodyArb(4), byteEditArb).map(([r, e]) => applyByteEdit(r.bytes, e)) },
  {
    weight: 1,
    arbitrary: fc.tuple(requestBodyArb(4), fc.array(byteEditArb, { minLength: 2, maxLength: 5 })).map(([r, es]) => es.reduce(applyByteEdit, r.bytes)),
  },
  { weight: 1, arbitrary: requestBodyArb(4).map((r) => r.bytes) },
  { weight: 1, arbitrary: fc.tuple(requestBodyArb(3), wrongShapeArb).map(([r, s]) => s.wrap(r.bytes)) },
  { weight: 1, arbitrary: fc.json().map(utf8) },
  { weight: 1, arbitrary: fc.jsonValue().map((v) => utf8(JSON.stringify({ messages: v }))) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }) },
);

/** Messages, their roles and blocks (type and id), read from JSON.parse output. */
function walkShape(
  body: JsonValue,
): Array<{ role: JsonValue | undefined; blocks: Array<{ type: JsonValue | undefined; id: JsonValue | undefined }> | 'string' }> {
  return messagesOf(body).map((m) => {
    const message = isJsonObject(m) ? m : {};
    const content = message['content'];
    return {
      role: message['role'],
      blocks: isJsonArray(content)
        ? content.map((b) => {
            const block = isJsonObject(b) ? b : {};
            return {
              type: block['type'],
              id:
                block['type'] === 'tool_result' ? block['tool_use_id'] : typeof block['id'] === 'string' && block['type'] !== 'tool_result' ? block['id'] : '',
            };
          })
        : 'string',
    };
  });
}

describe('indexTranscript', () => {
  it('should fail as not_json exactly when the structure is not JSON', () => {
    fc.assert(
      fc.property(bodyArb, (bytes) => {
        const outcome = indexTranscript(bytes);
        expect(outcome.kind === 'failed' && outcome.reason === 'not_json').toBe(!isStructurallyJson(bytes));
      }),
      // Regressions: broken JSON that a shape check reached first.
      { examples: [[utf8('{"messages":1,')], [utf8('{"messages":\u0000[]}')], [utf8('{"messages":[{"role":"user","content":5}')]] },
    );
  });

  // A deliberate choice (docs/core.md "From bytes to an index"): the scanner checks structure in
  // full but reads string contents only where the core uses them, so a raw control byte or a bad
  // escape in a string it never reads does not stop the index. Those bytes are copied unchanged,
  // so the upstream judges them as it would without ctxshed; fail-open.test.ts checks that a
  // rewrite's output is strict JSON exactly when its input is.
  it('should index a body whose only fault is inside a string the core never reads', () => {
    for (const bytes of [utf8('{"model":"m\u0001","messages":[]}'), utf8('{"model":"\\x","messages":[]}')]) {
      expect(parseBody(bytes)).toBeUndefined();
      expect(indexTranscript(bytes).kind).toBe('indexed');
    }
  });

  it('should find the messages, blocks and tool_results a JSON.parse walk finds, in the same order', () => {
    fc.assert(
      fc.property(bodyArb, (bytes) => {
        const outcome = indexTranscript(bytes);
        const parsed = parseBody(bytes);
        fc.pre(outcome.kind === 'indexed' && parsed !== undefined);
        if (outcome.kind !== 'indexed' || parsed === undefined) return;
        const { index } = outcome;

        const shape = walkShape(parsed);
        expect(index.messages.map((m) => m.role)).toEqual(shape.map((m) => m.role));
        expect(index.messages.map((m) => (m.content.kind === 'string' ? 'string' : m.blocks.map((b) => ({ type: b.type, id: b.id }))))).toEqual(
          shape.map((m) => m.blocks),
        );
        const results = walkToolResults(parsed);
        expect(index.toolResults.map((r) => r.toolUseId)).toEqual(results.map((r) => r.toolUseId));
        expect(index.toolResults.map((r) => [r.messageIndex, r.blockIndex])).toEqual(results.map((r) => [r.messageIndex, r.blockIndex]));
        expect(index.toolResults.map((r) => r.isError)).toEqual(results.map((r) => r.block['is_error'] === true));
      }),
    );
  });

  it('should refuse nesting deeper than MAX_JSON_DEPTH, which JSON.parse accepts', () => {
    const deep = `{"messages":[],"x":${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}}`;
    expect(() => JSON.parse(deep) as unknown).not.toThrow();
    const outcome = indexTranscript(utf8(deep));
    expect(outcome.kind === 'failed' && outcome.reason).toBe('not_json');
  });
});
