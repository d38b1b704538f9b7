import { describe, expect, it } from 'vitest';
import { renderTtl } from '../../src/replay/render-ttl.js';
import { backtestTtl } from '../../src/replay/ttl-backtest.js';
import { pairRequests } from '../../src/replay/ttl-pairs.js';
import { conv, req } from './ttl-fixtures.js';

describe('renderTtl', () => {
  it('should print agreement, the confusion table, the band and the resumes within 100 columns', () => {
    // Arrange
    const a = conv('a', [req('a0', 0, 0, 1000), req('a1', 1, 1000, 100), req('a2', 9, 1100, 10)], { session: 'a.jsonl' });
    const b = conv('b', [req('a0', 0, 0, 1000), req('a1', 1, 1000, 100), req('b2', 200, 0, 800, { input: 400 })], { session: 'b.jsonl' });
    const report = backtestTtl(pairRequests([a, b]), 2);

    // Act
    const text = renderTtl(report);

    // Assert
    expect(text).toContain('agreement 66.7% (2 of 3;');
    expect(text).toMatch(/predicted warm\s+1\s+0\n/);
    expect(text).toMatch(/predicted cold\s+1\s+1\n/);
    expect(text).toContain('5-15 min gaps: 5-minute TTL 1 pair, 1 billed warm; 1-hour TTL none');
    expect(text).toContain('resumes: 1 (1 in a file continuing another, 0 after a gap over the TTL); 0 opened warm');
    expect(text).toContain('1 cold: of 1,200 prompt tokens, 67% re-cached, 33% sent as plain input, 0% read');
    expect(text).toContain('left out: 2 copies');
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
  });
});
