import { describe, expect, it } from 'vitest';
import { tuningOf, tuningParts, type TuningArgs } from '../../src/cli/replay-tuning.js';
import { DEFAULT_SHED_POLICY } from '../../src/core/index.js';

const NONE: TuningArgs = { gate: undefined, minGainPct: undefined, recentPct: undefined, recentMax: undefined, coldRescuePct: undefined };

describe('tuningOf', () => {
  it('should leave every lever at the engine default when no flag is given', () => {
    expect(tuningOf(NONE)).toEqual({});
    expect(tuningParts(NONE)).toEqual([]);
  });

  it('should turn percentages into fractions and keep the rest of the shed policy', () => {
    const args = { ...NONE, gate: true, minGainPct: 20, recentPct: 4, recentMax: 12_000, coldRescuePct: 40 };

    expect(tuningOf(args)).toEqual({
      gate: true,
      minGainFraction: 0.2,
      shedPolicy: { ...DEFAULT_SHED_POLICY, recentFraction: 0.04, recentCeilingTokens: 12_000 },
      coldThreshold: 0.4,
    });
    expect(tuningParts(args)).toEqual(['--gate', '--min-gain-pct', '20', '--recent-pct', '4', '--recent-max', '12000', '--cold-rescue-pct', '40']);
  });

  it('should refuse a value out of range as a usage error', () => {
    expect(() => tuningOf({ ...NONE, recentPct: 120 })).toThrow('--recent-pct takes a number from 0 to 100, not 120');
    expect(() => tuningOf({ ...NONE, recentMax: 1.5 })).toThrow('--recent-max takes a whole number of tokens, not 1.5');
  });
});
