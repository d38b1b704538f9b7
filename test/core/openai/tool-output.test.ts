import { describe, expect, it } from 'vitest';
import { indexToolOutput } from '../../../src/core/openai/tool-output.js';
import { slice, utf8 } from '../bodies.js';

describe('indexToolOutput', () => {
  it('should take a string as one text, whatever its escapes', () => {
    // Arrange
    const bytes = utf8('"a\\n\\u00e9\\"b"');

    // Act
    const out = indexToolOutput(bytes, 0, 0, 'input_text');

    // Assert
    expect(out.textOnly).toBe(true);
    expect(out.content).toEqual({ start: 0, end: bytes.length, kind: 'string', texts: [{ start: 0, end: bytes.length }] });
  });

  it('should take a list of text parts of the given type as texts, in order, keys in any order', () => {
    // Arrange
    const bytes = utf8('[ {"text":"one","type":"text"} , {"type":"text","text":"two"} ]');

    // Act
    const out = indexToolOutput(bytes, 0, 0, 'text');

    // Assert
    expect(out.textOnly).toBe(true);
    expect(out.content.kind).toBe('array');
    expect(out.content.end).toBe(bytes.length);
    expect(out.content.texts.map((t) => slice(bytes, t))).toEqual(['"one"', '"two"']);
  });

  it.each([
    ['a part of the other API', '[{"type":"input_text","text":"x"}]'],
    ['a part with a non-string text', '[{"type":"text","text":1}]'],
    ['a part that is not an object', '["x"]'],
    ['an empty list', '[]'],
    ['an object', '{"type":"text","text":"x"}'],
    ['null', 'null'],
  ])('should not take %s as text', (_what, json) => {
    // Arrange
    const bytes = utf8(json);

    // Act
    const out = indexToolOutput(bytes, 0, 0, 'text');

    // Assert
    expect(out.textOnly).toBe(false);
    expect(out.content.end).toBe(bytes.length);
  });

  it.each(['prompt_cache_breakpoint', 'cache_control'])('should mark a part carrying %s', (mark) => {
    // Arrange
    const bytes = utf8(`[{"type":"text","text":"x","${mark}":{}}]`);

    // Act
    const out = indexToolOutput(bytes, 0, 0, 'text');

    // Assert
    expect(out.hasCacheMark).toBe(true);
    expect(out.textOnly).toBe(false);
  });
});
