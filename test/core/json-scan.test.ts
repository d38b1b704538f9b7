import { describe, expect, it } from 'vitest';
import {
  continueArray,
  continueObject,
  hexValue,
  JsonSyntaxError,
  MAX_JSON_DEPTH,
  scanArray,
  scanDocument,
  scanObject,
  scanString,
  scanValue,
  skipWhitespace,
} from '../../src/core/json-scan.js';
import { rawBytes, utf8 } from './bodies.js';

/** Whether JSON.parse accepts the text (the oracle for what JSON is). */
function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function scanError(bytes: Uint8Array): JsonSyntaxError | undefined {
  try {
    scanDocument(bytes);
    return undefined;
  } catch (error) {
    if (error instanceof JsonSyntaxError) return error;
    throw error;
  }
}

describe('scanDocument', () => {
  it.each(['{}', '[]', '""', '0', 'true', 'false', 'null', '{"a":1,"b":[true,false,null],"c":{"d":"e"}}', '[1,"two",{"three":[3]},[],{}]', '{"":""}'])(
    'should accept the document %s with a span covering all of it',
    (text) => {
      // Arrange
      const bytes = utf8(text);

      // Act
      const span = scanDocument(bytes);

      // Assert
      expect(span).toEqual({ start: 0, end: bytes.length });
      expect(parses(text)).toBe(true);
    },
  );

  it('should accept the four JSON whitespace bytes around and between tokens, and leave them out of the span', () => {
    // Arrange
    const text = ' \t\r\n{ "a" :\t[ 1 ,\r\n2 ] , "b"\n:\r"c" }\n\t \r';
    const bytes = utf8(text);

    // Act
    const span = scanDocument(bytes);

    // Assert
    expect(span).toEqual({ start: 4, end: text.lastIndexOf('}') + 1 });
    expect(parses(text)).toBe(true);
  });

  it.each([
    ['form feed', '\f{}'],
    ['vertical tab', '{\v}'],
    ['no-break space', '{\u00a0}'],
    ['line separator', '[1,\u2028 2]'],
    ['byte order mark', '\ufeff{}'],
  ])('should refuse %s as whitespace, as JSON.parse does', (_name, text) => {
    // Arrange
    const bytes = utf8(text);

    // Act
    const error = scanError(bytes);

    // Assert
    expect(error).toBeInstanceOf(JsonSyntaxError);
    expect(parses(text)).toBe(false);
  });

  it.each(['{} {}', '1 2', '{}x', '"a""b"', '[]]', '{}}', 'null,', 'true false'])('should refuse trailing bytes after the value in %s', (text) => {
    // Arrange
    const bytes = utf8(text);

    // Act
    const error = scanError(bytes);

    // Assert
    expect(error?.message).toMatch(/trailing bytes|unexpected|expected/);
    expect(parses(text)).toBe(false);
  });

  it('should report trailing bytes at the end of the value', () => {
    // Arrange
    const bytes = utf8('{"a":1}  x');

    // Act
    const error = scanError(bytes);

    // Assert
    expect(error?.message).toBe('trailing bytes at byte 7');
    expect(error?.offset).toBe(7);
  });

  it.each(['', ' ', '\n\t'])('should refuse an empty document %j', (text) => {
    // Arrange
    const bytes = utf8(text);

    // Act
    const error = scanError(bytes);

    // Assert
    expect(error?.message).toMatch(/^unexpected end/);
  });

  it.each([
    '0',
    '-0',
    '1',
    '-1',
    '10',
    '9876543210',
    '1.5',
    '-0.0',
    '0.000001',
    '1e5',
    '1E5',
    '1e+5',
    '1e-5',
    '1E+05',
    '-1.5e-10',
    '0e0',
    '123456789012345678901234567890',
    '2.50E+0003',
  ])('should accept the number %s, as JSON.parse does', (text) => {
    // Arrange
    const bytes = utf8(`[${text}]`);

    // Act
    const span = scanDocument(bytes);

    // Assert
    expect(span.end).toBe(bytes.length);
    expect(parses(`[${text}]`)).toBe(true);
  });

  it.each([
    '01',
    '-01',
    '00',
    '.5',
    '1.',
    '-',
    '+1',
    '1e',
    '1e+',
    '1E-',
    '1.e5',
    '0x1',
    'Infinity',
    '-Infinity',
    'NaN',
    '1_000',
    '--1',
    '1.5.5',
    '- 1',
    '1 .5',
    '1e5.5',
    '.',
    'e5',
  ])('should refuse the number %s, as JSON.parse does', (text) => {
    // Arrange
    const bytes = utf8(`[${text}]`);

    // Act
    const error = scanError(bytes);

    // Assert
    expect(error).toBeInstanceOf(JsonSyntaxError);
    expect(parses(`[${text}]`)).toBe(false);
  });

  it.each([
    ['quote', '"\\""'],
    ['backslash', '"\\\\"'],
    ['solidus', '"\\/"'],
    ['backspace', '"\\b"'],
    ['form feed', '"\\f"'],
    ['newline', '"\\n"'],
    ['carriage return', '"\\r"'],
    ['tab', '"\\t"'],
    ['\\u with digits', '"\\u0041"'],
    ['\\u with upper hex', '"\\uABCD"'],
    ['\\u with lower hex', '"\\uabcd"'],
    ['surrogate pair', '"\\ud83d\\ude00"'],
    ['lone surrogate (legal JSON, refused later when decoded)', '"\\ud800"'],
    ['every escape in a row', '"\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9"'],
  ])('should accept the %s escape', (_name, text) => {
    // Arrange
    const bytes = utf8(text);

    // Act
    const span = scanDocument(bytes);

    // Assert
    expect(span.end).toBe(bytes.length);
    expect(parses(text)).toBe(true);
  });

  it.each([
    ['\\a', '"\\a"'],
    ['\\x41', '"\\x41"'],
    ['\\u with 2 digits', '"\\u12"'],
    ['\\u with a non-hex digit', '"\\u12G4"'],
    ['\\U', '"\\U0041"'],
    ["\\'", `"\\'"`],
    ['\\0', '"\\0"'],
    ['backslash then raw newline', '"\\\n"'],
  ])("should leave the bad escape %s to the decoder: find the string's end, judge nothing inside", (_name, text) => {
    // Arrange: strings the core does not read go upstream as they are; decodeJsonString refuses these.
    const bytes = utf8(text);

    // Act
    const span = scanDocument(bytes);

    // Assert
    expect(span).toEqual({ start: 0, end: bytes.length });
    expect(parses(text)).toBe(false);
  });

  it.each([
    ['backslash at the end', '"\\'],
    ['\\u at the end', '"\\u00'],
    ['an escaped closing quote', '"abc\\"'],
  ])('should refuse a string left unterminated by %s', (_name, text) => {
    // Arrange
    const bytes = utf8(text);

    // Act
    const error = scanError(bytes);

    // Assert
    expect(error?.message).toBe(`unterminated string at byte ${bytes.length}`);
  });

  it('should leave each of the 32 raw control bytes inside a string to the decoder', () => {
    // Arrange
    const docs = Array.from({ length: 32 }, (_, c) => rawBytes('["a', [c], 'b"]'));

    // Act
    const ends = docs.map((doc) => scanDocument(doc).end);

    // Assert
    expect(ends).toEqual(docs.map(() => 7));
    expect(parses('"a\u0001b"')).toBe(false);
  });

  it('should pass bytes >= 0x80 in strings through without checking them as UTF-8', () => {
    // Arrange: valid UTF-8, then bytes that are not UTF-8 at all (decoding checks them later).
    const valid = utf8('"café 日本語 🙂"');
    const invalid = rawBytes('"', [0xff, 0xc3, 0x80, 0x80], '"');

    // Act
    const spans = [scanDocument(valid), scanDocument(invalid)];

    // Assert
    expect(spans).toEqual([
      { start: 0, end: valid.length },
      { start: 0, end: 6 },
    ]);
  });

  it('should refuse a byte >= 0x80 outside a string', () => {
    // Arrange
    const bytes = rawBytes('[', [0xc3, 0xa9], ']');

    // Act
    const error = scanError(bytes);

    // Assert
    expect(error?.message).toBe('unexpected byte at byte 1');
  });

  it.each(['tru', 'nul', 'fals', 'True', 'TRUE', 'nULL', 'truex', 'nulll', 'undefined', "'a'", 'falsey'])('should refuse the literal %s', (text) => {
    // Arrange
    const bytes = utf8(text);

    // Act
    const error = scanError(bytes);

    // Assert
    expect(error).toBeInstanceOf(JsonSyntaxError);
    expect(parses(text)).toBe(false);
  });

  it.each([
    '{"a":1,}',
    '[1,]',
    '{"a" 1}',
    '{a:1}',
    "{'a':1}",
    '[1 2]',
    '{"a":1 "b":2}',
    '{1:2}',
    '[',
    '{',
    '"abc',
    '{"a"}',
    '{"a":}',
    '{,}',
    '[,]',
    '[,1]',
    '{"a":1,,"b":2}',
    ']',
    '}',
    ':',
    '{"a"::1}',
    '["a":1]',
  ])('should refuse the malformed structure %s', (text) => {
    // Arrange
    const bytes = utf8(text);

    // Act
    const error = scanError(bytes);

    // Assert
    expect(error).toBeInstanceOf(JsonSyntaxError);
    expect(parses(text)).toBe(false);
  });

  it(`should accept nesting exactly ${MAX_JSON_DEPTH} deep`, () => {
    // Arrange
    const arrays = utf8('['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH));
    const objects = utf8(`${'{"a":'.repeat(MAX_JSON_DEPTH - 1)}{}${'}'.repeat(MAX_JSON_DEPTH - 1)}`);

    // Act
    const spans = [scanDocument(arrays), scanDocument(objects)];

    // Assert
    expect(spans).toEqual([
      { start: 0, end: arrays.length },
      { start: 0, end: objects.length },
    ]);
  });

  it(`should refuse nesting ${MAX_JSON_DEPTH + 1} deep, arrays or objects or mixed`, () => {
    // Arrange
    const depth = MAX_JSON_DEPTH + 1;
    const docs = [
      '['.repeat(depth) + ']'.repeat(depth),
      `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`,
      `${'[{"a":'.repeat((depth - 1) / 2)}[]${'}]'.repeat((depth - 1) / 2)}`,
    ];

    // Act
    const messages = docs.map((doc) => scanError(utf8(doc))?.message);

    // Assert
    expect(messages).toEqual([
      `nesting too deep at byte ${MAX_JSON_DEPTH}`,
      `nesting too deep at byte ${5 * MAX_JSON_DEPTH}`,
      `nesting too deep at byte ${3 * MAX_JSON_DEPTH}`,
    ]);
  });

  it('should refuse very deep nesting without overflowing the stack', () => {
    // Arrange
    const bytes = utf8('['.repeat(100_000));

    // Act
    const error = scanError(bytes);

    // Assert
    expect(error?.message).toMatch(/^nesting too deep/);
  });

  it('should report the offset of a bad array separator', () => {
    // Arrange
    const bytes = utf8('[1,]');

    // Act
    const error = scanError(bytes);

    // Assert
    expect(error?.offset).toBe(3);
    expect(error?.message).toBe('unexpected byte at byte 3');
  });
});

describe('scanString', () => {
  it.each([
    ['no escapes', '"abc"', 5],
    ['an escaped quote', '"a\\"b"', 6],
    ['an escaped backslash before the closing quote', '"a\\\\"', 5],
    ['three backslashes then a quote, then the end', '"\\\\\\""', 6],
    ['four backslashes before the closing quote', '"\\\\\\\\"', 6],
    ['only an escaped backslash', '"\\\\"', 4],
    ['an escaped quote first', '"\\"x"', 5],
    ['a \\u0022 escape (not a quote byte)', '"\\u0022"', 8],
  ])('should find the closing quote after %s', (_name, text, end) => {
    // Arrange
    const bytes = utf8(`${text} "next"`);

    // Act
    const found = scanString(bytes, 0);

    // Assert
    expect(found).toBe(end);
    expect(JSON.parse(text.slice(0, end))).toEqual(expect.any(String));
  });

  it('should decide escaped quotes by the parity of long backslash runs', () => {
    // Arrange: 1001 backslashes escape the quote after them; 1000 do not.
    const odd = utf8(`"${'\\'.repeat(1001)}"x"`);
    const even = utf8(`"${'\\'.repeat(1000)}"x"`);

    // Act
    const ends = [scanString(odd, 0), scanString(even, 0)];

    // Assert
    expect(ends).toEqual([1005, 1002]);
  });

  it('should return the index just past the closing quote, from any starting offset', () => {
    // Arrange
    const bytes = utf8('xx"a\\"b\\\\"yy');

    // Act
    const end = scanString(bytes, 2);

    // Assert
    expect(end).toBe(10);
  });

  it('should refuse an unterminated string with the offset of the end', () => {
    // Arrange
    const bytes = utf8('"abc');

    // Act
    const act = () => scanString(bytes, 0);

    // Assert
    expect(act).toThrow('unterminated string at byte 4');
  });
});

describe('skipWhitespace', () => {
  it('should stop at the first byte that is not space, tab, CR or LF, or at the end', () => {
    // Arrange
    const bytes = utf8(' \t\r\n\fx  ');

    // Act
    const stops = [skipWhitespace(bytes, 0), skipWhitespace(bytes, 5), skipWhitespace(bytes, 6)];

    // Assert
    expect(stops).toEqual([4, 5, 8]);
  });
});

describe('hexValue', () => {
  it('should read 0-9, a-f and A-F, and give -1 for anything else', () => {
    // Arrange
    const input = '0129afAFgG/:@`'.split('').map((c) => c.charCodeAt(0));

    // Act
    const values = [...input.map(hexValue), hexValue(undefined)];

    // Assert
    expect(values).toEqual([0, 1, 2, 9, 10, 15, 10, 15, -1, -1, -1, -1, -1, -1, -1]);
  });
});

describe('scanObject', () => {
  it('should visit each member in order with its key span, value start and depth', () => {
    // Arrange
    const bytes = utf8('{ "a" : 1 , "b\\u0063":{"x":[]} }');
    const seen: Array<[string, number, number]> = [];
    const text = (s: number, e: number) => new TextDecoder().decode(bytes.subarray(s, e));

    // Act
    const end = scanObject(bytes, 0, 1, (keyStart, keyEnd, valueStart, depth) => {
      seen.push([text(keyStart, keyEnd), valueStart, depth]);
      return keyStart === 2 ? valueStart + 1 : scanObject(bytes, valueStart, depth + 1, undefined);
    });

    // Assert
    expect(end).toBe(bytes.length);
    expect(seen).toEqual([
      ['"a"', 8, 1],
      ['"b\\u0063"', 22, 1],
    ]);
  });
});

describe('scanArray', () => {
  it('should visit each element with its start and index', () => {
    // Arrange
    const bytes = utf8('[ 10 ,"x", [ ] ]');
    const seen: Array<[number, number]> = [];

    // Act
    const end = scanArray(bytes, 0, 1, (start, index, depth) => {
      seen.push([start, index]);
      return scanValue(bytes, start, depth);
    });

    // Assert
    expect(end).toBe(bytes.length);
    expect(seen).toEqual([
      [2, 0],
      [6, 1],
      [11, 2],
    ]);
  });
});

describe('continueArray', () => {
  it('should scan the rest of an array from just past an element, as scanArray would', () => {
    // Arrange: resume just past element 1 ("x").
    const bytes = utf8('[ 10 ,"x" , [ ], {"a":1} ]');
    const seen: Array<[number, number]> = [];
    const visit = (start: number, index: number, depth: number): number => {
      seen.push([start, index]);
      return scanValue(bytes, start, depth);
    };
    const full = scanArray(bytes, 0, 1, visit);
    const fullSeen = seen.splice(0);

    // Act
    const end = continueArray(bytes, 9, 1, 2, visit);

    // Assert
    expect(end).toBe(full);
    expect(seen).toEqual(fullSeen.slice(2));
  });

  it('should end at the closing bracket right after the element', () => {
    // Arrange
    const bytes = utf8('[1,2]');

    // Act
    const end = continueArray(bytes, 4, 1, 2, undefined);

    // Assert
    expect(end).toBe(5);
  });

  it.each([
    ['a missing separator', '[1 2]', 2, 'expected , or ] at byte 3'],
    ['a trailing comma', '[1,]', 2, 'unexpected byte at byte 3'],
    ['an unclosed array', '[1,2', 2, 'expected , or ] at byte 4'],
  ])('should refuse %s, as scanArray does', (_name, text, from, message) => {
    // Arrange
    const bytes = utf8(text);

    // Act
    const error = (() => {
      try {
        continueArray(bytes, from, 1, 1, undefined);
        return undefined;
      } catch (e) {
        return e;
      }
    })();

    // Assert
    expect(error).toBeInstanceOf(JsonSyntaxError);
    expect((error as Error).message).toBe(message);
  });
});

describe('continueObject', () => {
  it("should scan the rest of an object from just past a member's value, as scanObject would", () => {
    // Arrange: resume just past the value of "a".
    const bytes = utf8('{"a":[1] , "b" : {"c":null}, "d":"e"}');
    const keys: string[] = [];
    const visit = (keyStart: number, keyEnd: number, valueStart: number, depth: number): number => {
      keys.push(new TextDecoder().decode(bytes.subarray(keyStart, keyEnd)));
      return scanValue(bytes, valueStart, depth);
    };
    const full = scanObject(bytes, 0, 1, visit);

    // Act
    keys.length = 0;
    const end = continueObject(bytes, 8, 1, visit);

    // Assert
    expect(end).toBe(full);
    expect(keys).toEqual(['"b"', '"d"']);
  });

  it.each([
    ['a missing separator', '{"a":1 "b":2}', 6, 'expected , or } at byte 7'],
    ['a member without a key', '{"a":1,2}', 6, 'expected key at byte 7'],
    ['a key without a colon', '{"a":1,"b" 2}', 6, 'expected colon at byte 11'],
  ])('should refuse %s, as scanObject does', (_name, text, from, message) => {
    // Arrange
    const bytes = utf8(text);

    // Act
    const error = (() => {
      try {
        continueObject(bytes, from, 1, undefined);
        return undefined;
      } catch (e) {
        return e;
      }
    })();

    // Assert
    expect(error).toBeInstanceOf(JsonSyntaxError);
    expect((error as Error).message).toBe(message);
  });
});
