import { describe, expect, it } from 'vitest';
import { sortKeys } from '../../src/core/sort-keys.js';

describe('sortKeys', () => {
  it('should give objects written in any key order the same JSON', () => {
    // Arrange
    const a = { b: 1, a: { d: [{ z: 1, y: 2 }], c: null } };
    const b = { a: { c: null, d: [{ y: 2, z: 1 }] }, b: 1 };

    // Act
    const [sa, sb] = [JSON.stringify(sortKeys(a)), JSON.stringify(sortKeys(b))];

    // Assert
    expect(sa).toBe(sb);
    expect(sa).toBe('{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}');
  });

  it('should keep the order of arrays and leave scalars alone', () => {
    // Arrange / Act / Assert
    expect(sortKeys([3, 1, 2])).toEqual([3, 1, 2]);
    expect(sortKeys('x')).toBe('x');
    expect(
      JSON.stringify(
        sortKeys([
          { b: 1, a: 2 },
          { b: 1, a: 2 },
        ]),
      ),
    ).toBe('[{"a":2,"b":1},{"a":2,"b":1}]');
  });
});
