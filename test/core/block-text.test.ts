import { describe, expect, it } from 'vitest';
import { blockText, bytesEqual, isCanonicalContent, TEXT_BLOCK_SEPARATOR } from '../../src/core/block-text.js';
import { mustIndex, rawBytes, toolResult, utf8 } from './bodies.js';

function single(content: unknown): Uint8Array {
  return utf8(JSON.stringify({ messages: [{ role: 'user', content: [toolResult('t', content)] }] }));
}

/** A body whose one tool_result content is exactly the given JSON source text. */
function withContentSource(source: string | Uint8Array): Uint8Array {
  return rawBytes('{"messages":[{"role":"user","content":[{"tool_use_id":"t","type":"tool_result","content":', source, '}]}]}');
}

describe('blockText', () => {
  it('should give the decoded text of string content', () => {
    // Arrange
    const body = single('a "quoted" line\n\tand é 🙂');
    const block = mustIndex(body).toolResults[0]!;

    // Act
    const text = blockText(body, block);

    // Assert
    expect(text).toEqual(utf8('a "quoted" line\n\tand é 🙂'));
  });

  it('should join the texts of text blocks with a newline', () => {
    // Arrange
    const body = single([
      { type: 'text', text: 'one' },
      { type: 'text', text: 'two\n' },
      { type: 'text', text: '' },
      { type: 'text', text: 'é' },
    ]);
    const block = mustIndex(body).toolResults[0]!;

    // Act
    const text = blockText(body, block);

    // Assert
    expect(TEXT_BLOCK_SEPARATOR).toBe(0x0a);
    expect(text).toEqual(utf8('one\ntwo\n\n\né'));
  });

  it('should give a single text block its own text', () => {
    // Arrange
    const body = single([{ type: 'text', text: 'only' }]);
    const block = mustIndex(body).toolResults[0]!;

    // Act
    const text = blockText(body, block);

    // Assert
    expect(text).toEqual(utf8('only'));
  });

  it.each([
    ['an image', [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AA==' } }]],
    ['absent content', undefined],
    ['null content', null],
    ['an empty array', []],
  ])('should give undefined for content that is not text: %s', (_name, content) => {
    // Arrange
    const body = single(content);
    const block = mustIndex(body).toolResults[0]!;

    // Act
    const text = blockText(body, block);

    // Assert
    expect(text).toBeUndefined();
  });

  it.each([
    ['a lone surrogate escape', utf8('"abc\\ud800"')],
    ['invalid UTF-8', rawBytes('"abc', [0xff], '"')],
    ['a lone surrogate in one of several text blocks', utf8('[{"type":"text","text":"ok"},{"type":"text","text":"\\udfff"}]')],
  ])('should give undefined when the text is not valid Unicode: %s', (_name, source) => {
    // Arrange
    const body = withContentSource(source);
    const block = mustIndex(body).toolResults[0]!;

    // Act
    const text = blockText(body, block);

    // Assert
    expect(text).toBeUndefined();
  });
});

describe('isCanonicalContent', () => {
  it.each([
    ['plain text', '"abc"'],
    ['non-ASCII written raw', '"café 🙂"'],
    ['the short escapes JSON.stringify writes', '"a\\nb\\tc\\"d\\\\e\\rf\\bg\\fh"'],
    ['a lowercase \\u escape for a control', '"\\u0001\\u001f"'],
  ])('should say yes for %s', (_name, source) => {
    // Arrange
    const body = withContentSource(source);
    const block = mustIndex(body).toolResults[0]!;
    const text = blockText(body, block)!;

    // Act
    const canonical = isCanonicalContent(body, block, text);

    // Assert
    expect(canonical).toBe(true);
  });

  it.each([
    ['an escaped solidus', '"a\\/b"'],
    ['an escaped é', '"caf\\u00e9"'],
    ['an escaped ASCII letter', '"\\u0061"'],
    ['an uppercase \\u escape', '"\\u001F"'],
    ['\\u0008 where JSON.stringify writes \\b', '"\\u0008"'],
    ['an escaped emoji pair', '"\\ud83d\\ude42"'],
    ['text blocks', '[{"type":"text","text":"abc"}]'],
  ])('should say no for %s', (_name, source) => {
    // Arrange
    const body = withContentSource(source);
    const block = mustIndex(body).toolResults[0]!;
    const text = blockText(body, block)!;

    // Act
    const canonical = isCanonicalContent(body, block, text);

    // Assert
    expect(canonical).toBe(false);
  });
});

describe('bytesEqual', () => {
  it('should compare length and every byte', () => {
    // Arrange
    const a = utf8('abc');

    // Act
    const results = [bytesEqual(a, utf8('abc')), bytesEqual(a, utf8('abd')), bytesEqual(a, utf8('ab')), bytesEqual(new Uint8Array(0), new Uint8Array(0))];

    // Assert
    expect(results).toEqual([true, false, false, true]);
  });

  it('should find a single differing byte anywhere in long arrays, whatever their offsets', () => {
    const buffer = new Uint8Array(300).map((_, i) => (i * 7) % 251);
    const other = buffer.slice();
    for (const [from, to] of [
      [0, 0],
      [1, 1],
      [3, 3],
      [2, 5],
      [0, 1],
    ] as const) {
      const n = 200 + from;
      const a = buffer.subarray(from, from + n);
      const b = other.subarray(to, to + n);
      b.set(a);
      expect(bytesEqual(a, b), `offsets ${from}/${to}`).toBe(true);
      for (let at = 0; at < n; at++) {
        b[at] = a[at]! ^ 1;
        expect(bytesEqual(a, b), `offsets ${from}/${to}, byte ${at}`).toBe(false);
        b[at] = a[at]!;
      }
    }
  });
});
