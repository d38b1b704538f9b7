import { describe, expect, it } from 'vitest';
import { decodeJsonString, encodeJsonString, isRawStringContent, isValidUtf8 } from '../../src/core/json-string.js';
import { rawBytes, utf8 } from './bodies.js';

/** Decodes a whole string token given as JSON source text. */
function decodeToken(token: string | Uint8Array): Uint8Array | undefined {
  const bytes = typeof token === 'string' ? utf8(token) : token;
  return decodeJsonString(bytes, 0, bytes.length);
}

const ALL_CONTROLS = Array.from({ length: 32 }, (_, c) => String.fromCharCode(c)).join('');

/** Strings whose JSON.stringify form the encoder must match byte for byte. */
const STRINGS = [
  '',
  'a',
  'plain ASCII text, nothing to escape',
  '"',
  '\\',
  '\\"',
  '"quoted"',
  'C:\\Users\\dev\\file.ts',
  ALL_CONTROLS,
  '\u007f',
  'line\nbreak',
  'tab\tand\rreturn',
  '\b\f',
  'nul\u0000byte',
  '\u001f\u001b[31mred\u001b[0m',
  'é',
  'café',
  'naïve déjà vu',
  '€100',
  '日本語のテキスト',
  'Привет',
  '🙂',
  '👨‍👩‍👧',
  'a🙂b\n"c"',
  '\u2028\u2029',
  '\ufeffBOM first',
  '/slashes/are/not/escaped/',
  '</script>',
  '\u{10ffff}',
  '     1→import x from "y";\n     2→',
  '{"json":"inside","n":[1,2]}',
  `mixed ${ALL_CONTROLS} é 🙂 \\ " / \u007f`,
];

describe('decodeJsonString', () => {
  it.each([
    ['\\"', '"'],
    ['\\\\', '\\'],
    ['\\/', '/'],
    ['\\b', '\b'],
    ['\\f', '\f'],
    ['\\n', '\n'],
    ['\\r', '\r'],
    ['\\t', '\t'],
    ['\\u0041', 'A'],
    ['\\u00e9', 'é'],
    ['\\u00E9', 'é'],
    ['\\u20ac', '€'],
    ['\\u0000', '\u0000'],
    ['\\u001f', '\u001f'],
    ['\\ud83d\\ude00', '😀'],
    ['\\uD83D\\uDE00', '😀'],
    ['\\uffff', '\uffff'],
    ['x\\ny\\u00e9z', 'x\nyéz'],
  ])('should decode the escape %s to the UTF-8 bytes of %j', (escaped, expected) => {
    // Arrange
    const token = `"${escaped}"`;

    // Act
    const text = decodeToken(token);

    // Assert
    expect(text).toEqual(utf8(expected));
  });

  it('should decode `\\u00e9` to the two bytes C3 A9', () => {
    // Arrange
    const token = '"\\u00e9"';

    // Act
    const text = decodeToken(token);

    // Assert
    expect([...(text ?? [])]).toEqual([0xc3, 0xa9]);
  });

  it('should decode a surrogate pair escape to one 4-byte UTF-8 sequence', () => {
    // Arrange
    const token = '"\\ud83d\\ude00"';

    // Act
    const text = decodeToken(token);

    // Assert
    expect([...(text ?? [])]).toEqual([0xf0, 0x9f, 0x98, 0x80]);
  });

  it.each([
    ['a lone high surrogate at the end', '"\\ud800"'],
    ['a lone high surrogate before text', '"\\ud800x"'],
    ['a high surrogate before a non-surrogate escape', '"\\ud800\\u0041"'],
    ['a high surrogate before a simple escape', '"\\ud800\\n"'],
    ['two high surrogates', '"\\ud800\\ud800"'],
    ['a lone low surrogate', '"\\udc00"'],
    ['a pair in the wrong order', '"\\ude00\\ud83d"'],
  ])('should give undefined for %s', (_name, token) => {
    // Arrange
    const bytes = utf8(token);

    // Act
    const text = decodeToken(bytes);

    // Assert
    expect(text).toBeUndefined();
  });

  it.each([
    ['0xff', [0xff]],
    ['a lone continuation byte', [0x80]],
    ['a truncated 2-byte sequence', [0xc3]],
    ['a truncated 3-byte sequence', [0xe2, 0x82]],
    ['an overlong slash', [0xc0, 0xaf]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
    ['a code point above U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ['0xf5', [0xf5, 0x80, 0x80, 0x80]],
  ])('should give undefined for invalid UTF-8: %s, with or without escapes around it', (_name, bad) => {
    // Arrange
    const plain = rawBytes('"ok ', bad, ' ok"');
    const escaped = rawBytes('"ok\\n', bad, '\\u00e9"');

    // Act
    const texts = [decodeToken(plain), decodeToken(escaped)];

    // Assert
    expect(texts).toEqual([undefined, undefined]);
  });

  it.each([
    ['\\a', '"\\a"'],
    ['\\x41', '"\\x41"'],
    ['\\U0041', '"\\U0041"'],
    ["\\'", `"\\'"`],
    ['\\0', '"\\0"'],
    ['\\u with 2 digits', '"\\u12"'],
    ['\\u with a non-hex digit', '"\\u12G4"'],
    ["\\u with a non-hex digit in a surrogate's pair", '"\\ud83d\\udeXY"'],
    ['a backslash before a raw newline', '"\\\n"'],
  ])('should give undefined for the bad escape %s', (_name, token) => {
    // Arrange
    const bytes = utf8(token);

    // Act
    const text = decodeToken(bytes);

    // Assert
    expect(text).toBeUndefined();
  });

  it('should give undefined for each of the 32 raw control bytes, with or without escapes beside it', () => {
    // Arrange
    const tokens = Array.from({ length: 32 }, (_, c) => [rawBytes('"a', [c], 'b"'), rawBytes('"\\n', [c], '\\u00e9"')]).flat();

    // Act
    const texts = tokens.map((token) => decodeToken(token));

    // Assert
    expect(texts.every((t) => t === undefined)).toBe(true);
  });

  it('should keep DEL (0x7f) raw, as JSON allows', () => {
    // Arrange
    const token = rawBytes('"a', [0x7f], 'b"');

    // Act
    const text = decodeToken(token);

    // Assert
    expect(text).toEqual(rawBytes('a', [0x7f], 'b'));
  });

  it('should return a view into the body, not a copy, when the token has no escape', () => {
    // Arrange
    const body = utf8('{"k":"café"}');

    // Act
    const text = decodeJsonString(body, 5, 12);

    // Assert
    expect(text).toEqual(utf8('café'));
    expect(text?.buffer).toBe(body.buffer);
    expect(text?.byteOffset).toBe(6);
  });

  it('should decode only the token at [start, end) of a larger body', () => {
    // Arrange
    const body = utf8('["one","t\\u0077o","three"]');

    // Act
    const text = decodeJsonString(body, 7, 17);

    // Assert
    expect(text).toEqual(utf8('two'));
  });

  it.each(STRINGS.map((s) => [JSON.stringify(s), s]))('should decode JSON.stringify output %s back to the text', (token, s) => {
    // Arrange
    const bytes = utf8(token);

    // Act
    const text = decodeToken(bytes);

    // Assert
    expect(text).toEqual(utf8(s));
  });
});

describe('encodeJsonString', () => {
  it.each(STRINGS.map((s) => [JSON.stringify(s), s]))('should write %s exactly as JSON.stringify does', (_token, s) => {
    // Arrange
    const text = utf8(s);

    // Act
    const token = encodeJsonString(text);

    // Assert
    expect(token).toEqual(new TextEncoder().encode(JSON.stringify(s)));
  });

  it('should match JSON.stringify for each control character on its own', () => {
    // Arrange
    const controls = Array.from({ length: 32 }, (_, c) => String.fromCharCode(c));

    // Act
    const tokens = controls.map((c) => new TextDecoder().decode(encodeJsonString(utf8(c))));

    // Assert
    expect(tokens).toEqual(controls.map((c) => JSON.stringify(c)));
    expect(tokens.slice(8, 14)).toEqual(['"\\b"', '"\\t"', '"\\n"', '"\\u000b"', '"\\f"', '"\\r"']);
  });

  it('should match JSON.stringify for every code point of the Basic Latin and Latin-1 blocks', () => {
    // Arrange
    const s = Array.from({ length: 256 }, (_, c) => String.fromCharCode(c)).join('');

    // Act
    const token = encodeJsonString(utf8(s));

    // Assert
    expect(token).toEqual(utf8(JSON.stringify(s)));
  });

  it('should round trip through decodeJsonString', () => {
    // Arrange
    const texts = STRINGS.map(utf8);

    // Act
    const decoded = texts.map((t) => {
      const token = encodeJsonString(t);
      return decodeJsonString(token, 0, token.length);
    });

    // Assert
    expect(decoded).toEqual(texts);
  });
});

describe('isRawStringContent', () => {
  it.each([
    ['empty', [], true],
    ['ASCII', [0x61, 0x20, 0x7e], true],
    ['DEL', [0x7f], true],
    ['valid UTF-8', [0xc3, 0xa9, 0xf0, 0x9f, 0x99, 0x82], true],
    ['a tab', [0x61, 0x09], false],
    ['NUL', [0x00], false],
    ['0x1f after non-ASCII', [0xc3, 0xa9, 0x1f], false],
    ['invalid UTF-8', [0x61, 0xff], false],
  ])('should say %s may stand raw in a string: %s', (_name, bytes, expected) => {
    // Arrange
    const input = Uint8Array.from(bytes);

    // Act
    const ok = isRawStringContent(input);

    // Assert
    expect(ok).toBe(expected);
  });
});

describe('isValidUtf8', () => {
  it.each([
    ['empty', []],
    ['ASCII', [0x61, 0x62]],
    ['é', [0xc3, 0xa9]],
    ['€', [0xe2, 0x82, 0xac]],
    ['an emoji', [0xf0, 0x9f, 0x99, 0x82]],
    ['U+10FFFF', [0xf4, 0x8f, 0xbf, 0xbf]],
    ['a byte order mark', [0xef, 0xbb, 0xbf]],
    ['NUL', [0x00]],
  ])('should accept %s', (_name, bytes) => {
    // Arrange
    const input = Uint8Array.from(bytes);

    // Act
    const valid = isValidUtf8(input);

    // Assert
    expect(valid).toBe(true);
  });

  it.each([
    ['a lone continuation byte', [0x61, 0x80]],
    ['an overlong encoding', [0xc0, 0x80]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
    ['a code point above U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ['a truncated sequence at the end', [0x61, 0xe2, 0x82]],
    ['0xfe', [0xfe]],
  ])('should refuse %s', (_name, bytes) => {
    // Arrange
    const input = Uint8Array.from(bytes);

    // Act
    const valid = isValidUtf8(input);

    // Assert
    expect(valid).toBe(false);
  });
});
