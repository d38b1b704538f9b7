import { describe, expect, it } from 'vitest';
import { clientCompactionPoint, effectiveCompactWindow, parseAutoCompactWindow } from '../../src/core/client-compaction.js';

describe('parseAutoCompactWindow', () => {
  it('should read numbers and k or m suffixes as Claude Code does', () => {
    expect(parseAutoCompactWindow('400000')).toBe(400_000);
    expect(parseAutoCompactWindow(' 400k ')).toBe(400_000);
    expect(parseAutoCompactWindow('1.5M')).toBe(1_500_000);
    expect(parseAutoCompactWindow('250.5k')).toBe(250_500);
  });

  it('should raise a value under 100,000 to 100,000 and ignore one that is not a positive number', () => {
    expect(parseAutoCompactWindow('50k')).toBe(100_000);
    expect(parseAutoCompactWindow('200')).toBe(100_000);
    for (const bad of [undefined, '', 'lots', '0', '-5k', 'k']) expect(parseAutoCompactWindow(bad)).toBeUndefined();
  });
});

describe('clientCompactionPoint', () => {
  it("should compact 33,000 tokens under the window, or under the variable's window when smaller", () => {
    expect(clientCompactionPoint(200_000, undefined)).toBe(167_000);
    expect(clientCompactionPoint(1_000_000, 400_000)).toBe(367_000);
    expect(clientCompactionPoint(200_000, 400_000)).toBe(167_000);
    expect(effectiveCompactWindow(1_000_000, 400_000)).toBe(400_000);
  });

  it('should take a measured margin, and never go below one token', () => {
    expect(clientCompactionPoint(200_000, undefined, 32_906)).toBe(167_094);
    expect(clientCompactionPoint(20_000, undefined)).toBe(1);
  });
});
