import { describe, expect, it } from 'vitest';
import { findFirstMessage } from '../../src/core/first-message.js';
import { mustIndex, slice, utf8 } from './bodies.js';

describe('findFirstMessage', () => {
  it('should give the span of messages[0], the same as the full index gives', () => {
    // Arrange
    const bytes = utf8(
      JSON.stringify({
        model: 'm',
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'hi' }] },
          { role: 'assistant', content: 'yo' },
        ],
        max_tokens: 5,
      }),
    );

    // Act
    const span = findFirstMessage(bytes);

    // Assert
    expect(span).toEqual({ start: mustIndex(bytes).messages[0]!.start, end: mustIndex(bytes).messages[0]!.end });
    expect(slice(bytes, span!)).toBe('{"role":"user","content":[{"type":"text","text":"hi"}]}');
  });

  it('should skip keys before "messages" whatever their values, and read a "messages" key spelled with escapes', () => {
    // Arrange
    const bytes = utf8(' { "model" : "m" , "meta" : { "a" : [ 1 , "]" ] } , "m\\u0065ssages" : [ {"role":"user","content":"x"} ] } ');

    // Act
    const span = findFirstMessage(bytes);

    // Assert
    expect(slice(bytes, span!)).toBe('{"role":"user","content":"x"}');
  });

  it('should not scan past the first message', () => {
    // Arrange: everything after messages[0] is garbage; only the full index would notice.
    const bytes = utf8('{"messages":[{"role":"user","content":"x"}, !!! not json');

    // Act
    const span = findFirstMessage(bytes);

    // Assert
    expect(slice(bytes, span!)).toBe('{"role":"user","content":"x"}');
  });

  it('should give null for an empty messages array', () => {
    // Arrange
    const bytes = utf8('{"model":"m","messages":[ ]}');

    // Act
    const span = findFirstMessage(bytes);

    // Assert
    expect(span).toBeNull();
  });

  it.each([
    ['a top-level array', '[{"messages":[]}]'],
    ['no messages key', '{"model":"m"}'],
    ['messages that are not an array', '{"messages":{}}'],
    ['a truncated head', '{"model":"m",'],
    ['a missing colon', '{"model" "m","messages":[]}'],
    ['a truncated first message', '{"messages":[{"role":"user","content":"x"'],
    ['garbage', 'hello'],
    ['an empty body', ''],
    ['nesting too deep before messages', `{"x":${'['.repeat(100_000)}`],
  ])('should give undefined for %s, and never throw', (_name, text) => {
    // Arrange
    const bytes = utf8(text);

    // Act
    const span = findFirstMessage(bytes);

    // Assert
    expect(span).toBeUndefined();
  });
});
