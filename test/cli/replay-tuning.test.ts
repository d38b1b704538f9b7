import { describe, expect, it } from 'vitest';
import { tuningOf, tuningParts, type TuningArgs } from '../../src/cli/replay-tuning.js';

const NONE: TuningArgs = { minGainPct: undefined, recentPct: undefined, recentMax: undefined };

describe('tuningOf', () => {
  it('should leave every lever at its default when no flag is given', () => {
    expect(tuningOf(NONE)).toEqual({});
    expect(tuningParts(NONE)).toEqual([]);
  });

  it('should turn percentages into fractions', () => {
    const args = { ...NONE, minGainPct: 20, recentPct: 4, recentMax: 12_000 };

    expect(tuningOf(args)).toEqual({ minGainFraction: 0.2, recentFraction: 0.04, recentCeilingTokens: 12_000 });
    expect(tuningParts({ ...args, gate: true, coldRescuePct: 40 })).toEqual([
      '--gate',
      '--min-gain-pct',
      '20',
      '--recent-pct',
      '4',
      '--recent-max',
      '12000',
      '--cold-rescue-pct',
      '40',
    ]);
  });

  it('should refuse a value out of range as a usage error, saying what it was given', () => {
    expect(() => tuningOf({ ...NONE, recentPct: 120 })).toThrow('--recent-pct takes a percentage from 0 to 100, not 120');
    expect(() => tuningOf({ ...NONE, recentMax: 1.5 })).toThrow('--recent-max takes a whole number of tokens >= 0, not 1.5');
    expect(() => tuningOf({ ...NONE, minGainPct: 'lots' })).toThrow('--min-gain-pct takes a percentage from 0 to 100, not "lots"');
  });
});
