import { describe, expect, it } from 'vitest';
import { formatAgo, formatLocalTime, formatWhen } from '../../src/report/format-time.js';

const NOW = Date.parse('2026-01-03T12:00:00.000Z');

describe('formatAgo', () => {
  it('should say how long ago in the largest whole unit', () => {
    const ago = (ms: number): string => formatAgo(new Date(NOW - ms).toISOString(), NOW);

    expect([ago(0), ago(12_000), ago(5 * 60_000), ago(3 * 3_600_000), ago(47 * 3_600_000), ago(4 * 86_400_000)]).toEqual([
      'now',
      '12s ago',
      '5m ago',
      '3h ago',
      '47h ago',
      '4d ago',
    ]);
  });

  it("should say now for a time a little in the future (another machine's clock) and - for none", () => {
    expect(formatAgo('2026-01-03T12:00:05.000Z', NOW)).toBe('now');
    expect(formatAgo(null, NOW)).toBe('-');
    expect(formatAgo('yesterday', NOW)).toBe('?');
  });
});

describe('formatLocalTime', () => {
  it('should print local time to the second', () => {
    const iso = '2026-01-03T09:08:07.000Z';
    const d = new Date(iso);
    const two = (n: number): string => String(n).padStart(2, '0');

    expect(formatLocalTime(iso)).toBe(`${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:08:07`);
    expect(formatLocalTime(null)).toBe('-');
  });
});

describe('formatWhen', () => {
  it('should give the absolute time and how long ago', () => {
    expect(formatWhen('2026-01-03T11:55:00.000Z', NOW)).toMatch(/^2026-01-0\d \d\d:55:00 \(5m ago\)$/);
  });
});
