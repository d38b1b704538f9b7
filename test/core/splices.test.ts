import { describe, expect, it } from 'vitest';
import { applySplices, applySplicesAfter, applySplicesWithin, planSplices, type Splice } from '../../src/core/splices.js';
import { fromUtf8, utf8 } from './bodies.js';

function splice(start: number, end: number, text: string): Splice {
  return { start, end, bytes: utf8(text) };
}

describe('planSplices', () => {
  it('should sort splices by start offset', () => {
    // Arrange
    const splices = [splice(6, 8, 'c'), splice(0, 1, 'a'), splice(3, 4, 'b')];

    // Act
    const planned = planSplices(splices, 10);

    // Assert
    expect(planned?.map((s) => s.start)).toEqual([0, 3, 6]);
  });

  it('should accept splices that touch end to start', () => {
    // Arrange
    const splices = [splice(2, 4, 'x'), splice(0, 2, 'y'), splice(4, 10, 'z')];

    // Act
    const planned = planSplices(splices, 10);

    // Assert
    expect(planned).toHaveLength(3);
  });

  it.each([
    ['two that overlap', [splice(0, 5, 'a'), splice(4, 6, 'b')]],
    ['one inside another', [splice(0, 10, 'a'), splice(3, 4, 'b')]],
    ['the same range twice', [splice(2, 5, 'a'), splice(2, 5, 'a')]],
    ['an end before its start', [splice(5, 4, 'a')]],
    ['an end past the body', [splice(8, 11, 'a')]],
    ['a negative start', [splice(-1, 2, 'a')]],
  ])('should refuse %s', (_name, splices) => {
    // Arrange: a body of 10 bytes.

    // Act
    const planned = planSplices(splices, 10);

    // Assert
    expect(planned).toBeUndefined();
  });

  it("should not reorder the caller's list", () => {
    // Arrange
    const splices = [splice(6, 8, 'c'), splice(0, 1, 'a')];

    // Act
    planSplices(splices, 10);

    // Assert
    expect(splices.map((s) => s.start)).toEqual([6, 0]);
  });

  it('should give an empty plan for no splices', () => {
    // Arrange: nothing.

    // Act
    const planned = planSplices([], 0);

    // Assert
    expect(planned).toEqual([]);
  });
});

describe('applySplices', () => {
  it('should replace each range, growing and shrinking, and copy every other byte', () => {
    // Arrange
    const body = utf8('0123456789');
    const planned = planSplices([splice(8, 10, ''), splice(0, 1, 'AAA'), splice(4, 6, '-')], body.length)!;

    // Act
    const out = applySplices(body, planned);

    // Assert
    expect(fromUtf8(out)).toBe('AAA123-67');
  });

  it('should insert at an empty range, at the start and at the end', () => {
    // Arrange
    const body = utf8('abc');
    const planned = planSplices([splice(3, 3, ']'), splice(0, 0, '[')], body.length)!;

    // Act
    const out = applySplices(body, planned);

    // Assert
    expect(fromUtf8(out)).toBe('[abc]');
  });

  it('should copy the body unchanged for no splices, into a new array', () => {
    // Arrange
    const body = utf8('{"a":1}');

    // Act
    const out = applySplices(body, []);

    // Assert
    expect(new Uint8Array(out)).toEqual(body);
    expect(out).not.toBe(body);
  });

  it('should leave the input untouched', () => {
    // Arrange
    const body = utf8('hello world');

    // Act
    applySplices(body, [splice(0, 5, 'HELLO')]);

    // Assert
    expect(fromUtf8(body)).toBe('hello world');
  });
});

describe('planSplices from an offset', () => {
  it('should refuse a splice that starts before the offset, and take one that starts at it', () => {
    // Arrange
    const before = [splice(3, 5, 'a')];
    const at = [splice(4, 5, 'a')];

    // Act
    const refused = planSplices(before, 10, 4);
    const taken = planSplices(at, 10, 4);

    // Assert
    expect(refused).toBeUndefined();
    expect(taken).toEqual(at);
  });
});

describe('applySplicesAfter', () => {
  it('should write the prefix, then the body from the offset with the splices applied', () => {
    // Arrange
    const body = utf8('0123456789');
    const planned = planSplices([splice(7, 8, 'SEVEN'), splice(5, 6, '')], body.length, 4)!;

    // Act
    const out = applySplicesAfter(utf8('head:'), body, 4, planned);

    // Assert
    expect(fromUtf8(out)).toBe('head:46SEVEN89');
  });

  it('should copy the rest of the body as it is without splices', () => {
    // Arrange
    const body = utf8('abcdef');

    // Act
    const out = applySplicesAfter(utf8('XY'), body, 2, []);

    // Assert
    expect(fromUtf8(out)).toBe('XYcdef');
  });

  it('should write into what allocate hands out, of the exact length', () => {
    // Arrange
    const lengths: number[] = [];
    const allocate = (n: number): Uint8Array => {
      lengths.push(n);
      return new Uint8Array(n).fill(0x21);
    };

    // Act
    const out = applySplicesAfter(utf8('p'), utf8('abc'), 1, [splice(1, 2, 'BB')], allocate);

    // Assert
    expect(lengths).toEqual([4]);
    expect(fromUtf8(out)).toBe('pBBc');
  });
});

describe('applySplicesWithin', () => {
  it('should give the bytes of the range with the splices inside it applied, in any order', () => {
    // Arrange
    const body = utf8('[abc,defg,hi]');
    const splices = [splice(8, 9, 'G'), splice(5, 6, '')];

    // Act
    const out = applySplicesWithin(body, 5, 9, splices);

    // Assert
    expect(fromUtf8(out!)).toBe('efG');
  });

  it('should refuse a splice that reaches outside the range, before or after it', () => {
    // Arrange
    const body = utf8('[abc,defg,hi]');

    // Act
    const before = applySplicesWithin(body, 5, 9, [splice(4, 6, '')]);
    const after = applySplicesWithin(body, 5, 9, [splice(8, 10, '')]);

    // Assert
    expect(before).toBeUndefined();
    expect(after).toBeUndefined();
  });
});
