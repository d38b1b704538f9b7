import { describe, expect, it } from 'vitest';
import { stringsIn, valueAtPath } from '../../src/core/json-paths.js';
import { JsonSyntaxError } from '../../src/core/json-scan.js';
import { slice, utf8 } from './bodies.js';

describe('valueAtPath', () => {
  it('should find the value a path of keys and positions leads to, whatever the spacing and escapes', () => {
    // Arrange
    const body = utf8('{ "input" : { "edits" : [ {"old_string":"a"} , { "n\\u0065w_string" : "b\\n" } ] }, "x": 1 }');

    // Act
    const at = valueAtPath(body, 0, ['input', 'edits', 1, 'new_string']);

    // Assert
    expect(at).toBeDefined();
    expect(slice(body, at!)).toBe('"b\\n"');
  });

  it('should lead nowhere for a missing key, a position past the end, a step into the other kind, or a key that appears twice', () => {
    // Arrange
    const body = utf8('{"a":[1,2],"b":{"c":"x"},"d":"1","d":"2"}');

    // Act / Assert
    expect(valueAtPath(body, 0, ['z'])).toBeUndefined();
    expect(valueAtPath(body, 0, ['a', 2])).toBeUndefined();
    expect(valueAtPath(body, 0, ['a', 'c'])).toBeUndefined();
    expect(valueAtPath(body, 0, ['b', 0])).toBeUndefined();
    expect(valueAtPath(body, 0, ['d'])).toBeUndefined();
    expect(slice(body, valueAtPath(body, 0, ['a', 1])!)).toBe('2');
  });

  it('should give the value itself for an empty path, and throw on bytes that are not JSON', () => {
    // Arrange
    const body = utf8('{"a":1}');

    // Act / Assert
    expect(valueAtPath(body, 0, [])).toEqual({ start: 0, end: body.length });
    expect(() => valueAtPath(utf8('{"a":'), 0, ['a'])).toThrow(JsonSyntaxError);
  });
});

describe('stringsIn', () => {
  it('should list every string value at any depth with its path, in document order, and no key', () => {
    // Arrange
    const body = utf8('{"file_path":"/a.ts","edits":[{"old_string":"x","n":3},{"new_string":"y"}],"flag":true,"none":null}');

    // Act
    const found = stringsIn(body, 0);

    // Assert
    expect(found.map((f) => [f.path, slice(body, f.span)])).toEqual([
      [['file_path'], '"/a.ts"'],
      [['edits', 0, 'old_string'], '"x"'],
      [['edits', 1, 'new_string'], '"y"'],
    ]);
  });

  it('should list nothing under a key that appears twice in one object (parsers disagree which wins)', () => {
    // Arrange
    const body = utf8('{"content":"a","content":"b","other":"c","nested":{"k":"d","k":"e"}}');

    // Act
    const found = stringsIn(body, 0);

    // Assert
    expect(found.map((f) => f.path)).toEqual([['other']]);
  });
});
