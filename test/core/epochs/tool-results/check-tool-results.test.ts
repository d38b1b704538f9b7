import { describe, expect, it } from 'vitest';
import { checkIndexedRewrite, checkOutput, checkRewrite, type StubbedBlock } from '../../../../src/core/epochs/tool-results/check-tool-results.js';
import { encodeJsonString } from '../../../../src/core/json-string.js';
import { applySplices } from '../../../../src/core/splices.js';
import { renderStub } from '../../../../src/core/stub.js';
import { filler, fromUtf8, mustIndex, utf8 } from '../../bodies.js';

const INPUT = utf8(
  JSON.stringify({
    model: 'claude-test',
    messages: [
      { role: 'user', content: 'Go' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'hmm', signature: 'c2ln' },
          { type: 'tool_use', id: 'toolu_0', name: 'Read', input: {} },
        ],
      },
      { role: 'user', content: [{ tool_use_id: 'toolu_0', type: 'tool_result', content: filler(2000), is_error: false }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: {} }] },
      { role: 'user', content: [{ tool_use_id: 'toolu_1', type: 'tool_result', content: 'short' }] },
      { role: 'user', content: [{ type: 'text', text: 'next', cache_control: { type: 'ephemeral' } }] },
    ],
    max_tokens: 100,
  }),
);
const BEFORE = mustIndex(INPUT);
const STUB_TOKEN = encodeJsonString(
  utf8(renderStub({ ordinal: 0, toolUseId: 'toolu_0', bytes: 2000, sha256: 'a'.repeat(64), jsonBytes: 2002, jsonSha256: 'b'.repeat(64) }, '/s/elided')),
);
const STUBBED: StubbedBlock[] = [
  { ordinal: 0, splice: { start: BEFORE.toolResults[0]!.content.start, end: BEFORE.toolResults[0]!.content.end, bytes: STUB_TOKEN } },
];
const OUTPUT = applySplices(
  INPUT,
  STUBBED.map((s) => s.splice),
);
const OUTPUT_TEXT = fromUtf8(OUTPUT);
const STUB_JSON = fromUtf8(STUB_TOKEN);

/** The good output with one textual edit. */
function corrupt(from: string, to: string): Uint8Array {
  if (!OUTPUT_TEXT.includes(from)) throw new Error(`"${from}" is not in the output`);
  return utf8(OUTPUT_TEXT.replace(from, to));
}

describe('checkRewrite', () => {
  it('should pass a correct rewrite', () => {
    // Arrange: the module's INPUT, OUTPUT and STUBBED.

    // Act
    const failure = checkRewrite(INPUT, BEFORE, OUTPUT, STUBBED);

    // Assert
    expect(failure).toBeUndefined();
  });

  it('should pass the input itself when nothing was stubbed', () => {
    // Arrange: nothing.

    // Act
    const failure = checkRewrite(INPUT, BEFORE, INPUT, []);

    // Assert
    expect(failure).toBeUndefined();
  });

  it.each([
    ['output that is not JSON', () => OUTPUT.subarray(0, OUTPUT.length - 1), /^output does not index: not_json: /],
    ['output that is not a Messages body', () => utf8('{"model":"claude-test"}'), /^output does not index: not_messages_body: no "messages" key$/],
    ['a changed byte before "messages"', () => corrupt('"claude-test"', '"claude-tesx"'), /^bytes before "messages" changed$/],
    ['"messages" moved', () => corrupt('"claude-test"', '"claude-test-2"'), /^bytes before "messages" changed$/],
    ['a changed byte after "messages"', () => corrupt('"max_tokens":100', '"max_tokens":101'), /^bytes after "messages" changed$/],
    [
      'a dropped message',
      () => corrupt(',{"role":"user","content":[{"type":"text","text":"next","cache_control":{"type":"ephemeral"}}]}', ''),
      /^message count changed$/,
    ],
    ['a changed role', () => corrupt('{"role":"user","content":[{"type":"text"', '{"role":"system","content":[{"type":"text"'), /^message 5 changed shape$/],
    ['string content turned into blocks', () => corrupt('"content":"Go"', '"content":[{"type":"text","text":"Go"}]'), /^message 0 changed shape$/],
    ['a dropped block', () => corrupt('{"type":"thinking","thinking":"hmm","signature":"c2ln"},', ''), /^message 1 changed shape$/],
    ['a changed block type', () => corrupt('"type":"thinking"', '"type":"redacted_thinking"'), /^message 1 block 0 changed$/],
    ['a changed tool_use id', () => corrupt('"id":"toolu_1"', '"id":"toolu_9"'), /^message 3 block 0 changed$/],
    ['a changed tool_result tool_use_id', () => corrupt('"tool_use_id":"toolu_1"', '"tool_use_id":"toolu_8"'), /^message 4 block 0 changed$/],
    ['a thinking block of another length', () => corrupt('"thinking":"hmm"', '"thinking":"hmmm"'), /^message 1 block 0 \(thinking\) changed length$/],
    ['a signature of another length', () => corrupt('"signature":"c2ln"', '"signature":"c2l"'), /^message 1 block 0 \(thinking\) changed length$/],
    ['a flipped is_error', () => corrupt('"is_error":false', '"is_error":true'), /^tool_result 0 changed$/],
    [
      'an added cache_control on a tool_result',
      () => corrupt('"content":"short"', '"content":"short","cache_control":{"type":"ephemeral"}'),
      /^tool_result 1 changed$/,
    ],
    ['a changed content of a block that was not stubbed', () => corrupt('"content":"short"', '"content":"shorter"'), /^tool_result 1 changed without a stub$/],
    ['a stub that differs from the one spliced', () => corrupt(STUB_JSON, STUB_JSON.replace('aaaa', 'aaab')), /^tool_result 0 does not hold its stub$/],
    ['a stub in block form', () => corrupt(STUB_JSON, `[{"type":"text","text":${STUB_JSON}}]`), /^tool_result 0 does not hold its stub$/],
    ['an empty string where the stub should be', () => corrupt(STUB_JSON, '""'), /^tool_result 0 does not hold its stub$/],
  ])('should report %s', (_name, output, message) => {
    // Arrange
    const bad = output();

    // Act
    const failure = checkRewrite(INPUT, BEFORE, bad, STUBBED);

    // Assert
    expect(failure).toMatch(message);
  });

  it('should report a stub that was planned but is not in the output', () => {
    // Arrange: the output is the untouched input.

    // Act
    const failure = checkRewrite(INPUT, BEFORE, INPUT, STUBBED);

    // Assert
    expect(failure).toBe('tool_result 0 does not hold its stub');
  });
});

describe('checkOutput', () => {
  it("should hand back the output's own index when the output passes", () => {
    // Arrange: the module's INPUT, OUTPUT and STUBBED.

    // Act
    const outcome = checkOutput(INPUT, BEFORE, OUTPUT, STUBBED);

    // Assert
    expect(outcome.ok).toBe(true);
    expect(outcome.ok && outcome.after.index).toEqual(mustIndex(OUTPUT));
    expect(outcome.ok && outcome.after.modelBeforeMessages).toBe('claude-test');
  });

  it('should say what failed, as checkRewrite does', () => {
    // Arrange
    const bad = corrupt('"max_tokens":100', '"max_tokens":101');

    // Act
    const outcome = checkOutput(INPUT, BEFORE, bad, STUBBED);

    // Assert
    expect(outcome).toEqual({ ok: false, failure: checkRewrite(INPUT, BEFORE, bad, STUBBED) });
  });
});

describe('checkIndexedRewrite', () => {
  it('should not compare again the messages and tool results before where it starts', () => {
    // Arrange: tool_result 0 (message 2) holds no stub, which a check from the start reports.
    const after = mustIndex(INPUT);

    // Act
    const fromStart = checkIndexedRewrite(INPUT, BEFORE, INPUT, after, STUBBED, { message: 0, toolResult: 0 });
    const fromMessage3 = checkIndexedRewrite(INPUT, BEFORE, INPUT, after, STUBBED, { message: 3, toolResult: 1 });

    // Assert
    expect(fromStart).toBe('tool_result 0 does not hold its stub');
    expect(fromMessage3).toBeUndefined();
  });

  it.each([
    ['a changed byte after "messages"', () => corrupt('"max_tokens":100', '"max_tokens":101'), 'bytes after "messages" changed'],
    ['a changed byte before "messages"', () => corrupt('"claude-test"', '"claude-tesx"'), 'bytes before "messages" changed'],
    ['a changed block after where it starts', () => corrupt('"tool_use_id":"toolu_1"', '"tool_use_id":"toolu_8"'), 'message 4 block 0 changed'],
  ])('should still check %s', (_name, output, message) => {
    // Arrange
    const bad = output();

    // Act
    const failure = checkIndexedRewrite(INPUT, BEFORE, bad, mustIndex(bad), STUBBED, { message: 3, toolResult: 1 });

    // Assert
    expect(failure).toBe(message);
  });

  it('should still compare the message and tool_result counts', () => {
    // Arrange
    const bad = corrupt(',{"role":"user","content":[{"type":"text","text":"next","cache_control":{"type":"ephemeral"}}]}', '');

    // Act
    const failure = checkIndexedRewrite(INPUT, BEFORE, bad, mustIndex(bad), STUBBED, { message: 6, toolResult: 2 });

    // Assert
    expect(failure).toBe('message count changed');
  });
});
