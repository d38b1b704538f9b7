import { describe, expect, it } from 'vitest';
import { indexChat } from '../../../src/core/openai/chat-index.js';
import type { OpenAiIndex } from '../../../src/core/openai/openai-index.js';
import { slice, utf8 } from '../bodies.js';
import { chatBody } from './openai-bodies.js';

function mustIndex(bytes: Uint8Array): OpenAiIndex {
  const outcome = indexChat(bytes);
  if (outcome.kind !== 'indexed') throw new Error(`expected the body to index: ${outcome.reason}: ${outcome.detail}`);
  return outcome.index;
}

function failure(bytes: Uint8Array): string {
  const outcome = indexChat(bytes);
  return outcome.kind === 'indexed' ? 'indexed' : outcome.reason;
}

function body(value: unknown): Uint8Array {
  return utf8(JSON.stringify(value));
}

describe('indexChat', () => {
  it('should index each message as a message whose one block is itself, with its tool calls inside', () => {
    // Arrange
    const bytes = chatBody(['out 0']);

    // Act
    const index = mustIndex(bytes);

    // Assert
    expect(index.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'user']);
    expect(index.messages.map((m) => m.blocks.map((b) => `${b.type}:${b.id}`))).toEqual([
      ['message:'],
      ['message:'],
      ['message:', 'tool_use:call_0'],
      ['tool_result:call_0'],
      ['message:'],
    ]);
    for (const m of index.messages) expect(m.content).toEqual({ start: m.start, end: m.end, kind: 'array' });
    const call = index.messages[2]!.blocks[1]!;
    expect(slice(bytes, call).startsWith('{"id":"call_0","type":"function"')).toBe(true);
    expect(index.model).toBe('gpt-test');
  });

  it('should list tool messages as tool results: tool_call_id and the content span', () => {
    // Arrange
    const bytes = chatBody([
      'first',
      [
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b' },
      ],
    ]);

    // Act
    const index = mustIndex(bytes);

    // Assert
    const [first, second] = index.toolResults;
    expect(first).toMatchObject({ ordinal: 0, messageIndex: 3, blockIndex: 0, toolUseId: 'call_0', textOnly: true, isError: false, hasCacheControl: false });
    expect(slice(bytes, first!.content)).toBe('"first"');
    expect(second).toMatchObject({ ordinal: 1, messageIndex: 5, toolUseId: 'call_1', textOnly: true });
    expect(second!.content.kind).toBe('array');
    expect(second!.content.texts.map((t) => slice(bytes, t))).toEqual(['"a"', '"b"']);
  });

  it.each([
    ['an input_text part', [{ type: 'input_text', text: 'x' }]],
    ['an image part', [{ type: 'image_url', image_url: { url: 'data:,' } }]],
    ['null', null],
  ])('should not take tool content holding %s as text', (_what, content) => {
    // Arrange
    const bytes = chatBody([content]);

    // Act
    const index = mustIndex(bytes);

    // Assert
    expect(index.toolResults[0]?.textOnly).toBe(false);
  });

  it('should mark tool content whose part carries a gateway cache_control', () => {
    // Arrange
    const bytes = chatBody([[{ type: 'text', text: 'x', cache_control: { type: 'ephemeral' } }]]);

    // Act
    const index = mustIndex(bytes);

    // Assert
    expect(index.toolResults[0]?.hasCacheControl).toBe(true);
  });

  it('should record a tool message without content as absent content, and read prompt_cache_key', () => {
    // Arrange
    const bytes = chatBody([undefined], { promptCacheKey: 'k' });

    // Act
    const index = mustIndex(bytes);

    // Assert
    expect(index.toolResults[0]?.content.kind).toBe('absent');
    expect(index.promptCacheKey).toBe('k');
  });

  it.each([
    ['not JSON', utf8('{"messages":'), 'not_json'],
    ['an array body', body([]), 'not_messages_body'],
    ['no messages', body({ model: 'm' }), 'not_messages_body'],
    ['messages that are not an array', body({ messages: {} }), 'not_messages_body'],
    ['a message that is not an object', body({ messages: ['hi'] }), 'not_messages_body'],
    ['a message without role', body({ messages: [{ content: 'hi' }] }), 'not_messages_body'],
    ['a numeric role', body({ messages: [{ role: 1, content: 'hi' }] }), 'unknown_shape'],
    ['a tool message without tool_call_id', body({ messages: [{ role: 'tool', content: 'x' }] }), 'unknown_shape'],
    ['a tool call that is not an object', body({ messages: [{ role: 'assistant', tool_calls: [1] }] }), 'unknown_shape'],
    ['two messages keys', utf8('{"messages":[],"messages":[]}'), 'duplicate_key'],
    ['a message with two content keys', utf8('{"messages":[{"role":"tool","tool_call_id":"a","content":"x","content":"y"}]}'), 'duplicate_key'],
    ['a tool call with two id keys', utf8('{"messages":[{"role":"assistant","tool_calls":[{"id":"a","id":"b"}]}]}'), 'duplicate_key'],
  ])('should refuse %s', (_what, bytes, reason) => {
    // Arrange: the body.

    // Act
    const outcome = failure(bytes);

    // Assert
    expect(outcome).toBe(reason);
  });
});
