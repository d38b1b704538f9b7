import { describe, expect, it } from 'vitest';
import { indexResponses } from '../../../src/core/openai/responses-index.js';
import type { OpenAiIndex } from '../../../src/core/openai/openai-index.js';
import { slice, utf8 } from '../bodies.js';
import { responsesBody } from './openai-bodies.js';

function mustIndex(bytes: Uint8Array): OpenAiIndex {
  const outcome = indexResponses(bytes);
  if (outcome.kind !== 'indexed') throw new Error(`expected the body to index: ${outcome.reason}: ${outcome.detail}`);
  return outcome.index;
}

function failure(bytes: Uint8Array): string {
  const outcome = indexResponses(bytes);
  return outcome.kind === 'indexed' ? 'indexed' : outcome.reason;
}

function body(value: unknown): Uint8Array {
  return utf8(JSON.stringify(value));
}

describe('indexResponses', () => {
  it('should index each input item as a message of one block, itself', () => {
    // Arrange
    const bytes = responsesBody(['out 0', 'out 1']);

    // Act
    const index = mustIndex(bytes);

    // Assert
    expect(slice(bytes, index.messagesSpan).startsWith('[{"type":"additional_tools"')).toBe(true);
    expect(index.messages.map((m) => m.role)).toEqual([
      'developer',
      'developer',
      'user',
      'function_call',
      'function_call_output',
      'function_call',
      'function_call_output',
      'assistant',
    ]);
    expect(index.messages.map((m) => m.blocks.map((b) => b.type))).toEqual([
      ['additional_tools'],
      ['message'],
      ['message'],
      ['tool_use'],
      ['tool_result'],
      ['tool_use'],
      ['tool_result'],
      ['message'],
    ]);
    for (const m of index.messages) {
      expect(m.content).toEqual({ start: m.start, end: m.end, kind: 'array' });
      expect(m.blocks[0]).toMatchObject({ start: m.start, end: m.end });
    }
    expect(index.model).toBe('gpt-test');
    expect(index.promptCacheKey).toBeUndefined();
  });

  it('should list function_call_output items as tool results: call_id, output span, text only', () => {
    // Arrange
    const bytes = responsesBody(['first output', 'second "output"']);

    // Act
    const index = mustIndex(bytes);

    // Assert
    expect(index.toolResults).toHaveLength(2);
    const [first, second] = index.toolResults;
    expect(first).toMatchObject({ ordinal: 0, messageIndex: 4, blockIndex: 0, toolUseId: 'call_0', isError: false, hasCacheControl: false, textOnly: true });
    expect(slice(bytes, first!.content)).toBe('"first output"');
    expect(first!.content.kind).toBe('string');
    expect(first!.content.texts).toEqual([{ start: first!.content.start, end: first!.content.end }]);
    expect(slice(bytes, second!.content)).toBe('"second \\"output\\""');
    expect(index.messages[3]?.blocks[0]?.id).toBe('call_0');
    expect(index.messages[4]?.blocks[0]?.id).toBe('call_0');
  });

  it('should read a custom_tool_call_output whose output is a list of input_text parts as text', () => {
    // Arrange: the third pair is a custom `exec` pair.
    const parts = [
      { type: 'input_text', text: 'Script completed\n' },
      { type: 'input_text', text: 'the output' },
    ];
    const bytes = responsesBody(['a', 'b', parts]);

    // Act
    const index = mustIndex(bytes);

    // Assert
    const custom = index.toolResults[2]!;
    expect(index.messages[custom.messageIndex]?.role).toBe('custom_tool_call_output');
    expect(index.messages[custom.messageIndex - 1]?.blocks[0]).toMatchObject({ type: 'tool_use', id: 'call_2' });
    expect(custom.content.kind).toBe('array');
    expect(custom.textOnly).toBe(true);
    expect(custom.content.texts.map((t) => slice(bytes, t))).toEqual(['"Script completed\\n"', '"the output"']);
  });

  it.each([
    [
      'an image part',
      [
        { type: 'input_text', text: 'x' },
        { type: 'input_image', image_url: 'data:image/png;base64,AA==' },
      ],
    ],
    ['a part with a third key', [{ type: 'input_text', text: 'x', annotations: [] }]],
    ['a chat-style text part', [{ type: 'text', text: 'x' }]],
    ['an empty list', []],
    ['null', null],
    ['a number', 7],
  ])('should not take an output holding %s as text', (_what, output) => {
    // Arrange
    const bytes = responsesBody([output]);

    // Act
    const index = mustIndex(bytes);

    // Assert
    expect(index.toolResults[0]?.textOnly).toBe(false);
  });

  it('should mark an output whose part carries prompt_cache_breakpoint', () => {
    // Arrange
    const bytes = responsesBody([[{ type: 'input_text', text: 'x', prompt_cache_breakpoint: {} }]]);

    // Act
    const index = mustIndex(bytes);

    // Assert
    expect(index.toolResults[0]?.hasCacheControl).toBe(true);
  });

  it('should record an output item without an output key as absent content', () => {
    // Arrange
    const bytes = responsesBody([undefined]);

    // Act
    const index = mustIndex(bytes);

    // Assert
    expect(index.toolResults[0]?.content.kind).toBe('absent');
    expect(index.toolResults[0]?.textOnly).toBe(false);
  });

  it('should read prompt_cache_key and take an item with a role and no type as a message', () => {
    // Arrange
    const bytes = body({ prompt_cache_key: 'thread-1', input: [{ role: 'user', content: 'hi' }] });

    // Act
    const index = mustIndex(bytes);

    // Assert
    expect(index.promptCacheKey).toBe('thread-1');
    expect(index.messages[0]?.role).toBe('user');
    expect(index.messages[0]?.blocks[0]?.type).toBe('message');
  });

  it('should index a string input as no items, its span the string', () => {
    // Arrange
    const bytes = body({ model: 'm', input: 'just a prompt' });

    // Act
    const index = mustIndex(bytes);

    // Assert
    expect(index.messages).toEqual([]);
    expect(index.toolResults).toEqual([]);
    expect(slice(bytes, index.messagesSpan)).toBe('"just a prompt"');
  });

  it('should read keys spelled with escapes and bodies with whitespace', () => {
    // Arrange
    const bytes = utf8(' {\n "\\u0069nput" : [ {"type":"function_call_output" , "call_\\u0069d":"c1", "output" : "x"} ] ,"model":"m" }\n');

    // Act
    const index = mustIndex(bytes);

    // Assert
    expect(index.toolResults[0]).toMatchObject({ toolUseId: 'c1', textOnly: true });
    expect(slice(bytes, index.toolResults[0]!.content)).toBe('"x"');
  });

  it('should accept a null previous_response_id', () => {
    // Arrange
    const bytes = body({ previous_response_id: null, input: [] });

    // Act
    const outcome = failure(bytes);

    // Assert
    expect(outcome).toBe('indexed');
  });

  it.each([
    ['not JSON', utf8('{"input": ['), 'not_json'],
    ['trailing bytes', utf8('{"input":[]} x'), 'not_json'],
    ['an array body', body([]), 'not_messages_body'],
    ['no input', body({ model: 'm' }), 'not_messages_body'],
    ['a numeric input', body({ input: 3 }), 'not_messages_body'],
    ['two input keys', utf8('{"input":[],"input":[]}'), 'duplicate_key'],
    ['two prompt_cache_key keys', utf8('{"prompt_cache_key":"a","input":[],"prompt_cache_key":"b"}'), 'duplicate_key'],
    ['an item that is not an object', body({ input: ['hi'] }), 'unknown_shape'],
    ['an item with neither type nor role', body({ input: [{ content: 'hi' }] }), 'unknown_shape'],
    ['an output without call_id', body({ input: [{ type: 'function_call_output', output: 'x' }] }), 'unknown_shape'],
    ['an output with a numeric call_id', body({ input: [{ type: 'custom_tool_call_output', call_id: 1, output: 'x' }] }), 'unknown_shape'],
    ['an item with two call_id keys', utf8('{"input":[{"type":"function_call_output","call_id":"a","call_id":"b","output":"x"}]}'), 'duplicate_key'],
    ['an item with two output keys', utf8('{"input":[{"type":"function_call_output","call_id":"a","output":"x","output":"y"}]}'), 'duplicate_key'],
    ['a numeric type', body({ input: [{ type: 1 }] }), 'unknown_shape'],
    ['previous_response_id', body({ previous_response_id: 'resp_1', input: [] }), 'unknown_shape'],
    ['a conversation', body({ conversation: 'conv_1', input: [] }), 'unknown_shape'],
    ['a shape fault before a syntax fault', utf8('{"input":[1],"x":}'), 'not_json'],
  ])('should refuse %s', (_what, bytes, reason) => {
    // Arrange: the body.

    // Act
    const outcome = failure(bytes);

    // Assert
    expect(outcome).toBe(reason);
  });
});
