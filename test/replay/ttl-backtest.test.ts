import { describe, expect, it } from 'vitest';
import { backtestTtl } from '../../src/replay/ttl-backtest.js';
import { pairRequests } from '../../src/replay/ttl-pairs.js';
import { conv, req } from './ttl-fixtures.js';

describe('backtestTtl', () => {
  it('should count agreement and the confusion table', () => {
    // Arrange: warm/warm, warm/cold (a changed system prompt), cold/warm (the band), cold/cold
    const c = conv('c', [req('r0', 0, 0, 1000), req('r1', 1, 1000, 100), req('r2', 2, 200, 1000), req('r3', 9, 1200, 100), req('r4', 30, 0, 1400)]);

    // Act
    const report = backtestTtl(pairRequests([c]), 1);

    // Assert
    expect(report.pairs).toBe(4);
    expect(report.confusion).toEqual({ predictedWarm: { billedWarm: 1, billedCold: 1 }, predictedCold: { billedWarm: 1, billedCold: 1 } });
    expect(report.agreement).toBe(0.5);
    expect(report.unforeseeable).toEqual({ pairs: 1, cacheWriteTokens: 1000 });
    expect(report.disagreements.map((d) => [d.sentAt.slice(11, 16), d.predictedWarm])).toEqual([
      ['20:02', true],
      ['20:09', false],
    ]);
  });

  it('should count the 5-15 minute band apart, by TTL, with how many were still warm', () => {
    // Arrange: 5-minute gaps of 6, 12 and 20 minutes (only the first two in the band), and one 1-hour gap of 10
    const five = conv('five', [req('a0', 0, 0, 1000), req('a1', 6, 1000, 10), req('a2', 18, 0, 1100), req('a3', 38, 0, 1200)]);
    const hour = conv('hour', [req('b0', 0, 0, 1000, { ttl: '1h' }), req('b1', 10, 1000, 10, { ttl: '1h' })]);

    // Act
    const report = backtestTtl(pairRequests([five, hour]), 2);

    // Assert
    expect(report.band).toEqual({ fromMinutes: 5, toMinutes: 15, ttl5m: { pairs: 2, billedWarm: 1 }, ttl1h: { pairs: 1, billedWarm: 1 } });
    expect(report.byTtl).toEqual({ ttl5m: 3, ttl1h: 1 });
  });

  it('should measure what the first turns after a resume re-cached and sent as plain input', () => {
    // Arrange: a resumed file whose first new turn re-caches 2,000 tokens and sends 1,000 plain;
    // a same-file return after 2 hours on a 1-hour TTL, re-written whole; a resume that found it warm
    const a = conv('a', [req('a0', 0, 0, 3000, { ttl: '1h' })], { session: 'a.jsonl' });
    const b = conv('b', [req('a0', 0, 0, 3000, { ttl: '1h' }), req('b1', 300, 0, 2000, { input: 1000 })], { session: 'b.jsonl' });
    const c = conv('c', [req('c0', 0, 0, 1000, { ttl: '1h' }), req('c1', 120, 0, 1100, { input: 0, ttl: '1h' })], { session: 'c.jsonl' });
    const d = conv('d', [req('a0', 0, 0, 3000, { ttl: '1h' }), req('d1', 30, 3000, 10)], { session: 'd.jsonl' });

    // Act
    const report = backtestTtl(pairRequests([a, b, c, d]), 4);

    // Assert
    const r = report.resumes;
    expect([r.turns, r.newFile, r.afterGap, r.billedWarm]).toEqual([3, 2, 1, 1]);
    expect(r.cold).toMatchObject({ turns: 2, contextTokens: 4100, cacheWriteTokens: 3100, inputTokens: 1000, cacheReadTokens: 0 });
    expect(r.cold.cacheWriteShare).toBeCloseTo(3100 / 4100, 4);
    expect(r.list.map((t) => [t.session, t.kind, t.gapMinutes, t.billedWarm])).toEqual([
      ['d.jsonl', 'newFile', 30, true],
      ['c.jsonl', 'afterGap', 120, false],
      ['b.jsonl', 'newFile', 270, false], // d1 read a0's entry at minute 30
    ]);
  });

  it('should report no agreement figure without pairs', () => {
    // Act
    const report = backtestTtl(pairRequests([conv('c', [req('r0', 0, 0, 1000)])]), 1);

    // Assert
    expect([report.pairs, report.agreement, report.resumes.cold.cacheWriteShare]).toEqual([0, 0, 0]);
  });
});
