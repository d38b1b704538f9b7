import { describe, expect, it } from 'vitest';
import { judgeItems } from '../../../src/core/epochs/judge-items.js';

describe('judgeItems', () => {
  it('should keep one verdict per item in order, splice the applied ones and total them', () => {
    // Arrange
    const items = [1, 2, 3];
    const seen: number[] = [];
    const verdictOf = (n: number): 'taken' | 'odd' => (seen.push(n), n % 2 === 0 ? 'taken' : 'odd');

    // Act
    const judged = judgeItems(
      items,
      'taken',
      verdictOf,
      (n) => ({ applied: n * 10, splice: { start: n, end: n + 1, bytes: new Uint8Array(0) }, bytes: n, messages: 1 }),
      (n, reason) => ({ n, reason }),
    );

    // Assert
    expect(seen).toEqual([1, 2, 3]);
    expect(judged.verdicts).toEqual(['odd', 'taken', 'odd']);
    expect(judged.applied).toEqual([20]);
    expect(judged.splices).toEqual([{ start: 2, end: 3, bytes: new Uint8Array(0) }]);
    expect(judged.skipped).toEqual([
      { n: 1, reason: 'odd' },
      { n: 3, reason: 'odd' },
    ]);
    expect([judged.bytes, judged.messages]).toEqual([2, 1]);
  });
});
