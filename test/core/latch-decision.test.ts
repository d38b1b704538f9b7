import { describe, expect, it } from 'vitest';
import type { FrozenBlock } from '../../src/core/epoch-types.js';
import { decideLatch, DEFAULT_MIN_GAIN_FRACTION, DEFAULT_TOKENS_PER_BYTE, type FullnessReading, type LatchInput } from '../../src/core/latch-decision.js';
import { DEFAULT_LONG_WINDOW_RESCUE_TOKENS } from '../../src/core/latch-threshold.js';
import { planned } from './planned-blocks.js';

function frozen(ordinal: number): FrozenBlock {
  return {
    ordinal,
    toolUseId: `toolu_${ordinal}`,
    bytes: 1,
    sha256: String(ordinal).padStart(64, '0'),
    jsonBytes: 3,
    jsonSha256: String(ordinal).padStart(64, '1'),
  };
}

// 150k of a 200k window (75%), measured on a 600 KB request: 0.25 tokens per byte.
const READING: FullnessReading = { contextTokens: 150_000, window: 200_000, epochsApplied: 0, requestBytes: 600_000 };
// 200 KB of text at 0.25 tokens/byte frees 50k tokens: 25% of the window.
const INPUT: LatchInput = { reading: READING, threshold: 0.7, frozen: [], epochCount: 0, plan: [planned(0, 120_000), planned(1, 80_000)] };

describe('decideLatch', () => {
  it('should latch over the threshold with enough to gain, adding every planned block', () => {
    // Arrange: INPUT.

    // Act
    const decision = decideLatch(INPUT);

    // Assert
    expect(decision).toEqual({ latch: true, fullness: 0.75, added: INPUT.plan, estimatedTokensFreed: 50_000, crossed: 'fullness' });
  });

  it('should say no_reading before any usage was read', () => {
    // Arrange
    const input = { ...INPUT, reading: undefined };

    // Act
    const decision = decideLatch(input);

    // Assert
    expect(decision).toEqual({ latch: false, why: 'no_reading' });
  });

  it('should say below_threshold just under the threshold, and latch exactly at it', () => {
    // Arrange
    const under = { ...INPUT, reading: { ...READING, contextTokens: 139_999 } };
    const at = { ...INPUT, reading: { ...READING, contextTokens: 140_000 } };

    // Act
    const decisions = [decideLatch(under), decideLatch(at)];

    // Assert
    expect(decisions[0]).toEqual({ latch: false, why: 'below_threshold' });
    expect(decisions[1]).toMatchObject({ latch: true, fullness: 0.7 });
  });

  it('should say stale_reading when the reading came from a request without the latest epoch', () => {
    // Arrange
    const input = { ...INPUT, epochCount: 2, reading: { ...READING, epochsApplied: 1 } };

    // Act
    const decision = decideLatch(input);

    // Assert
    expect(decision).toEqual({ latch: false, why: 'stale_reading' });
  });

  it('should say nothing_new when every planned block is frozen already, or nothing is planned', () => {
    // Arrange
    const allFrozen = { ...INPUT, frozen: [frozen(0), frozen(1)], epochCount: 1, reading: { ...READING, epochsApplied: 1 } };
    const empty = { ...INPUT, plan: [] };

    // Act
    const decisions = [decideLatch(allFrozen), decideLatch(empty)];

    // Assert
    expect(decisions).toEqual([
      { latch: false, why: 'nothing_new' },
      { latch: false, why: 'nothing_new' },
    ]);
  });

  it('should add only the blocks no epoch froze yet, and count only their gain', () => {
    // Arrange
    const input = { ...INPUT, frozen: [frozen(1)], epochCount: 1, reading: { ...READING, epochsApplied: 1 } };

    // Act
    const decision = decideLatch(input);

    // Assert
    expect(decision).toEqual({ latch: true, fullness: 0.75, added: [INPUT.plan[0]], estimatedTokensFreed: 30_000, crossed: 'fullness' });
  });

  it('should say gain_too_small when the new blocks free less than the minimum fraction of the window', () => {
    // Arrange: at 0.25 tokens per byte, 4 bytes free one token.
    const needed = DEFAULT_MIN_GAIN_FRACTION * READING.window;
    const justUnder = { ...INPUT, plan: [planned(0, needed * 4 - 4)] };
    const justEnough = { ...INPUT, plan: [planned(0, needed * 4)] };

    // Act
    const decisions = [decideLatch(justUnder), decideLatch(justEnough)];

    // Assert
    expect(decisions[0]).toEqual({ latch: false, why: 'gain_too_small' });
    expect(decisions[1]).toMatchObject({ latch: true, estimatedTokensFreed: needed });
  });

  it('should use the given minGainFraction', () => {
    // Arrange
    const input = { ...INPUT, minGainFraction: 0.3 };

    // Act
    const decision = decideLatch(input);

    // Assert
    expect(decision).toEqual({ latch: false, why: 'gain_too_small' });
  });

  it('should estimate tokens at the default ratio when the reading has no request size', () => {
    // Arrange
    const input = { ...INPUT, reading: { ...READING, contextTokens: 180_000, requestBytes: 0 } };

    // Act
    const decision = decideLatch(input);

    // Assert
    expect(decision).toMatchObject({ latch: true, estimatedTokensFreed: 200_000 * DEFAULT_TOKENS_PER_BYTE });
  });

  it('should latch on the token threshold before the percentage, at a 1M window, and name it', () => {
    // Arrange: 130k of a 1M window is 13%, far under 70%, but over a 120k token threshold.
    const reading = { ...READING, contextTokens: 130_000, window: 1_000_000, requestBytes: 520_000 };
    const input = { ...INPUT, reading, rescueTokens: 120_000 };

    // Act
    const decision = decideLatch(input);

    // Assert
    expect(decision).toMatchObject({ latch: true, crossed: 'tokens', thresholdTokens: 120_000, fullness: 0.13 });
  });

  it('should take the default token threshold at a 1M window, and none when told 0', () => {
    // Arrange: just under and at the default, and at it with the token threshold switched off.
    const at = { ...READING, contextTokens: DEFAULT_LONG_WINDOW_RESCUE_TOKENS, window: 1_000_000 };
    const under = { ...at, contextTokens: DEFAULT_LONG_WINDOW_RESCUE_TOKENS - 1 };

    // Act
    const decisions = [
      decideLatch({ ...INPUT, reading: under }),
      decideLatch({ ...INPUT, reading: at }),
      decideLatch({ ...INPUT, reading: at, rescueTokens: 0 }),
    ];

    // Assert
    expect(decisions[0]).toEqual({ latch: false, why: 'below_threshold' });
    expect(decisions[1]).toMatchObject({ latch: true, crossed: 'tokens', thresholdTokens: DEFAULT_LONG_WINDOW_RESCUE_TOKENS });
    expect(decisions[2]).toEqual({ latch: false, why: 'below_threshold' });
  });

  it('should judge the gain of a token crossing against N / threshold, not the whole 1M window', () => {
    // Arrange: 140k tokens on 560 KB; N 140k at 70% stands for a 200k window, so 20k tokens (80 KB) must go.
    const reading = { ...READING, contextTokens: 140_000, window: 1_000_000, requestBytes: 560_000 };
    const justUnder = { ...INPUT, reading, rescueTokens: 140_000, plan: [planned(0, 80_000 - 4)] };
    const justEnough = { ...INPUT, reading, rescueTokens: 140_000, plan: [planned(0, 80_000)] };

    // Act
    const decisions = [decideLatch(justUnder), decideLatch(justEnough)];

    // Assert
    expect(decisions[0]).toEqual({ latch: false, why: 'gain_too_small' });
    expect(decisions[1]).toMatchObject({ latch: true, crossed: 'tokens', estimatedTokensFreed: 20_000 });
  });

  it('should name the percentage when it is the lower of the two, even with a token threshold in force', () => {
    // Arrange: at a 200k window, 70% is 140k, under a 150k token threshold; 160k crossed both.
    const input = { ...INPUT, reading: { ...READING, contextTokens: 160_000 }, rescueTokens: 150_000 };

    // Act
    const decision = decideLatch(input);

    // Assert
    expect(decision).toMatchObject({ latch: true, crossed: 'fullness', thresholdTokens: 150_000 });
  });
});
