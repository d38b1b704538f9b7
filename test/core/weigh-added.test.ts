import { describe, expect, it } from 'vitest';
import type { FrozenBlock } from '../../src/core/epoch-types.js';
import { DEFAULT_TOKENS_PER_BYTE, type FullnessReading } from '../../src/core/fullness-reading.js';
import { DEFAULT_MIN_GAIN_FRACTION, weighAdded } from '../../src/core/weigh-added.js';
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
const THRESHOLDS = { threshold: 0.7 };
// 200 KB of text at 0.25 tokens/byte frees 50k tokens: 25% of the window.
const PLAN = [planned(0, 120_000), planned(1, 80_000)];

describe('weighAdded', () => {
  it('should weigh every planned block when none is frozen, as enough', () => {
    // Act
    const weighed = weighAdded(READING, THRESHOLDS, [], PLAN, undefined);

    // Assert
    expect(weighed).toEqual({ kind: 'enough', added: PLAN, estimatedTokensFreed: 50_000, floorTokens: 20_000 });
  });

  it('should say nothing_new when every planned block is frozen already, or nothing is planned', () => {
    // Act
    const weighed = [weighAdded(READING, THRESHOLDS, [frozen(0), frozen(1)], PLAN, undefined), weighAdded(READING, THRESHOLDS, [], [], undefined)];

    // Assert
    expect(weighed).toEqual([{ kind: 'nothing_new' }, { kind: 'nothing_new' }]);
  });

  it('should add only the blocks no epoch froze yet, and count only their gain', () => {
    // Act
    const weighed = weighAdded(READING, THRESHOLDS, [frozen(1)], PLAN, undefined);

    // Assert
    expect(weighed).toMatchObject({ kind: 'enough', added: [PLAN[0]], estimatedTokensFreed: 30_000 });
  });

  it('should say gain_too_small just under the minimum fraction of the window, and enough at it', () => {
    // Arrange: at 0.25 tokens per byte, 4 bytes free one token.
    const needed = DEFAULT_MIN_GAIN_FRACTION * READING.window;

    // Act
    const justUnder = weighAdded(READING, THRESHOLDS, [], [planned(0, needed * 4 - 4)], undefined);
    const justEnough = weighAdded(READING, THRESHOLDS, [], [planned(0, needed * 4)], undefined);

    // Assert
    expect(justUnder).toMatchObject({ kind: 'gain_too_small', floorTokens: needed });
    expect(justEnough).toMatchObject({ kind: 'enough', estimatedTokensFreed: needed });
  });

  it('should use the given minGainFraction', () => {
    expect(weighAdded(READING, THRESHOLDS, [], PLAN, 0.3)).toMatchObject({ kind: 'gain_too_small', floorTokens: 60_000 });
  });

  it('should estimate tokens at the default ratio when the reading has no request size', () => {
    const weighed = weighAdded({ ...READING, requestBytes: 0 }, THRESHOLDS, [], PLAN, undefined);

    expect(weighed).toMatchObject({ kind: 'enough', estimatedTokensFreed: 200_000 * DEFAULT_TOKENS_PER_BYTE });
  });

  it('should judge the gain of a token crossing against N / threshold, not the whole 1M window', () => {
    // Arrange: 140k tokens on 560 KB; N 140k at 70% stands for a 200k window, so 20k tokens (80 KB) must go.
    const reading = { ...READING, contextTokens: 140_000, window: 1_000_000, requestBytes: 560_000 };
    const thresholds = { threshold: 0.7, rescueTokens: 140_000 };

    // Act
    const justUnder = weighAdded(reading, thresholds, [], [planned(0, 80_000 - 4)], undefined);
    const justEnough = weighAdded(reading, thresholds, [], [planned(0, 80_000)], undefined);

    // Assert
    expect(justUnder).toMatchObject({ kind: 'gain_too_small', floorTokens: 20_000 });
    expect(justEnough).toMatchObject({ kind: 'enough', estimatedTokensFreed: 20_000 });
  });
});
