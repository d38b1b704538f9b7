import { describe, expect, it } from 'vitest';
import { indexOrFailure, makeDuplicateGuard, readStringValue, readToken, scanTopLevel, ShapeError } from '../../../src/core/openai/index-support.js';
import { JsonSyntaxError } from '../../../src/core/json-scan.js';
import { utf8 } from '../bodies.js';

const EMPTY_INDEX = { byteLength: 0, messagesSpan: { start: 0, end: 0 }, messages: [], toolResults: [], model: undefined };

describe('indexOrFailure', () => {
  it('should return what the builder built', () => {
    // Arrange
    const build = (): typeof EMPTY_INDEX => EMPTY_INDEX;

    // Act
    const outcome = indexOrFailure(utf8('{}'), build);

    // Assert
    expect(outcome).toEqual({ kind: 'indexed', index: EMPTY_INDEX });
  });

  it('should turn a shape error into its reason when the body is JSON', () => {
    // Arrange
    const build = (): never => {
      throw new ShapeError('unknown_shape', 'odd');
    };

    // Act
    const outcome = indexOrFailure(utf8('{"a":1}'), build);

    // Assert
    expect(outcome).toEqual({ kind: 'failed', reason: 'unknown_shape', detail: 'odd' });
  });

  it('should say not_json for a shape error in a body that is not JSON further on', () => {
    // Arrange
    const build = (): never => {
      throw new ShapeError('unknown_shape', 'odd');
    };

    // Act
    const outcome = indexOrFailure(utf8('{"a":1,}'), build);

    // Assert
    expect(outcome).toMatchObject({ kind: 'failed', reason: 'not_json' });
  });

  it('should say not_json for a syntax error and for nesting too deep', () => {
    // Arrange
    const syntax = (): never => {
      throw new JsonSyntaxError(3, 'bad');
    };
    const deep = (): never => {
      throw new RangeError('stack');
    };

    // Act
    const outcomes = [indexOrFailure(utf8('x'), syntax), indexOrFailure(utf8('x'), deep)];

    // Assert
    expect(outcomes).toEqual([
      { kind: 'failed', reason: 'not_json', detail: 'bad at byte 3' },
      { kind: 'failed', reason: 'not_json', detail: 'nesting too deep' },
    ]);
  });

  it('should let any other error through (a bug, not a body)', () => {
    // Arrange
    const build = (): never => {
      throw new TypeError('bug');
    };

    // Act
    const act = (): unknown => indexOrFailure(utf8('{}'), build);

    // Assert
    expect(act).toThrow(TypeError);
  });
});

describe('readToken and readStringValue', () => {
  it('should decode escapes and mark invalid text', () => {
    // Arrange
    const escaped = utf8('"\\u0074ype"');
    const invalid = utf8('"\\ud800"');

    // Act
    const texts = [readToken(escaped, 0, escaped.length), readToken(invalid, 0, invalid.length)];

    // Assert
    expect(texts).toEqual(['type', '\u0000invalid']);
  });

  it('should refuse a value that is not a string', () => {
    // Arrange
    const bytes = utf8('12');

    // Act
    const act = (): string => readStringValue(bytes, 0, 'the role');

    // Assert
    expect(act).toThrow('the role is not a string');
  });
});

describe('makeDuplicateGuard', () => {
  it('should refuse a watched key seen twice and let other keys repeat', () => {
    // Arrange
    const guard = makeDuplicateGuard(['type'], 'item 0');

    // Act
    guard('type');
    guard('other');
    guard('other');
    const act = (): void => guard('type');

    // Assert
    expect(act).toThrow('item 0 has two "type" keys');
  });
});

describe('scanTopLevel', () => {
  it('should keep model and prompt_cache_key strings and hand other keys to the callback', () => {
    // Arrange
    const body = utf8('{"model":"m","x":[1,2],"prompt_cache_key":"k","y":3}');
    const seen: string[] = [];

    // Act
    const strings = scanTopLevel(body, [], (key) => {
      seen.push(key);
      return undefined;
    });

    // Assert
    expect(strings).toEqual({ model: 'm', promptCacheKey: 'k' });
    expect(seen).toEqual(['x', 'y']);
  });

  it('should hand a non-string model to the callback and keep none', () => {
    // Arrange
    const body = utf8('{"model":7}');
    const seen: string[] = [];

    // Act
    const strings = scanTopLevel(body, [], (key) => {
      seen.push(key);
      return undefined;
    });

    // Assert
    expect(strings.model).toBeUndefined();
    expect(seen).toEqual(['model']);
  });

  it('should refuse a body that is not an object, a watched key twice, and trailing bytes', () => {
    // Arrange
    const none = (): undefined => undefined;

    // Act / Assert
    expect(() => scanTopLevel(utf8('[1]'), [], none)).toThrow(ShapeError);
    expect(() => scanTopLevel(utf8('{"input":1,"input":2}'), ['input'], none)).toThrow(/two "input" keys/);
    expect(() => scanTopLevel(utf8('{} x'), [], none)).toThrow(JsonSyntaxError);
  });
});
