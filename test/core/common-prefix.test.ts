import { describe, expect, it } from 'vitest';
import { commonPrefixLengthLoop } from '../../src/core/common-prefix.js';
import { utf8 } from './bodies.js';

describe('commonPrefixLengthLoop', () => {
  it.each([
    ['two empty arrays', '', '', 0],
    ['one empty array', '', 'abc', 0],
    ['equal bytes', 'abcdef', 'abcdef', 6],
    ['a prefix of the other', 'abc', 'abcdef', 3],
    ['the other way round', 'abcdef', 'abc', 3],
    ['a difference in the middle', 'abcXef', 'abcYef', 3],
    ['a difference at the first byte', 'xbc', 'abc', 0],
    ['a difference at the last byte', 'abcd', 'abce', 3],
  ])('should measure %s', (_name, a, b, expected) => {
    // Arrange
    const x = utf8(a);
    const y = utf8(b);

    // Act
    const n = commonPrefixLengthLoop(x, y);

    // Assert
    expect(n).toBe(expected);
  });

  it('should compare views by their own offsets', () => {
    // Arrange
    const whole = utf8('..abcdef');
    const view = whole.subarray(2);

    // Act
    const n = commonPrefixLengthLoop(view, utf8('abcdxx'));

    // Assert
    expect(n).toBe(4);
  });
});
