import { describe, expect, it } from 'vitest';
import { formatBytes, formatCount, formatPercent, formatTokens, plural } from '../../src/report/format-units.js';

describe('formatBytes', () => {
  it('should show bytes, KiB, MiB and GiB at 1024 a step', () => {
    expect([0, 812, 1024, 18_864, 320 * 1024, 3.25 * 1024 * 1024, 1.5 * 1024 ** 3].map(formatBytes)).toEqual([
      '0 B',
      '812 B',
      '1.0 KiB',
      '18.4 KiB',
      '320 KiB',
      '3.3 MiB',
      '1.5 GiB',
    ]);
  });

  it('should keep the sign of a negative size', () => {
    expect(formatBytes(-2048)).toBe('-2.0 KiB');
  });
});

describe('formatTokens', () => {
  it('should mark estimates with ~ and shorten thousands and millions', () => {
    expect([0, 812, 4716, 48_213, 1_250_000].map(formatTokens)).toEqual(['~0', '~812', '~4.7k', '~48k', '~1.3M']);
  });
});

describe('formatPercent', () => {
  it('should show a fraction as a percentage with one decimal, and null as -', () => {
    expect([0.7260833, 0.7, 1.02, null].map(formatPercent)).toEqual(['72.6%', '70.0%', '102.0%', '-']);
  });
});

describe('formatCount and plural', () => {
  it('should group thousands and pluralize', () => {
    expect(formatCount(12_000)).toBe('12,000');
    expect([plural(1, 'epoch'), plural(2, 'epoch'), plural(1204, 'request')]).toEqual(['1 epoch', '2 epochs', '1,204 requests']);
  });
});
