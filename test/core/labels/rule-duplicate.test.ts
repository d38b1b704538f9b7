import { describe, expect, it } from 'vitest';
import { findDuplicates } from '../../../src/core/labels/rule-duplicate.js';

describe('findDuplicates', () => {
  it('should drop a candidate whose text appears again later', () => {
    // Arrange: results 0 and 2 hold the same text, 1 and 3 differ.
    const shas = ['aa', 'bb', 'aa', 'cc'];

    // Act
    const found = findDuplicates(shas, [0, 1, 2, 3]);

    // Assert
    expect([...found]).toEqual([0]);
  });

  it('should keep the last copy, also when the later copies are not candidates', () => {
    // Arrange: the last copy is a recent block, never a candidate.
    const shas = ['aa', 'aa', 'aa'];

    // Act
    const found = findDuplicates(shas, [0, 1]);

    // Assert
    expect([...found].sort()).toEqual([0, 1]);
  });

  it('should ignore results without text', () => {
    expect([...findDuplicates([undefined, undefined, 'aa'], [0, 1])]).toEqual([]);
  });
});
