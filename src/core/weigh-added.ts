/**
 * What the blocks an epoch would add free, against the gain asked of it (docs/rescue.md "When an
 * epoch latches", rule 3): each epoch re-writes the provider's cache from its first new block
 * onwards, so a small gain would buy a cache re-write and bring the next crossing back within a
 * turn or two. The decision (core/decide/decide-epoch.ts) asks it once the threshold and the
 * reading's freshness are settled. In the base, so the kinds below the decision name its types. Pure.
 */
import { blockKeyOf, blockKeys, type KeyedBlock } from './block-key.js';
import type { FrozenBlock } from './epoch-types.js';
import { tokensPerByteOf, type FullnessReading } from './fullness-reading.js';
import { gainFloorTokens, type ThresholdSettings } from './latch-threshold.js';

/** Each epoch must free at least this fraction of the window. */
export const DEFAULT_MIN_GAIN_FRACTION = 0.1;

/**
 * What the decision reads of a planned block (`PlannedBlock`, or core/eligible-blocks.ts's
 * `EligibleBlock`): its name (an ordinal, or a part and its place: block-key.ts) and its bytes.
 */
export interface DecidedBlock extends KeyedBlock {
  readonly bytes: number;
}

/** What the blocks not frozen yet would free, weighed against the minimum gain: rule 3 alone, the threshold asked already. */
export type WeighedBlocks<B extends DecidedBlock> =
  | { readonly kind: 'nothing_new' }
  | { readonly kind: 'gain_too_small'; readonly added: readonly B[]; readonly estimatedTokensFreed: number; readonly floorTokens: number }
  | { readonly kind: 'enough'; readonly added: readonly B[]; readonly estimatedTokensFreed: number; readonly floorTokens: number };

/** Weighs the plan's blocks not frozen yet against the minimum gain of the reading's window (rule 3). */
export function weighAdded<B extends DecidedBlock>(
  reading: FullnessReading,
  settings: ThresholdSettings,
  frozen: readonly FrozenBlock[],
  plan: readonly B[],
  minGainFraction: number | undefined,
): WeighedBlocks<B> {
  const frozenKeys = blockKeys(frozen);
  const added = plan.filter((b) => !frozenKeys.has(blockKeyOf(b)));
  if (added.length === 0) return { kind: 'nothing_new' };
  const estimatedTokensFreed = Math.round(added.reduce((sum, b) => sum + b.bytes, 0) * tokensPerByteOf(reading));
  const floorTokens = gainFloorTokens(reading, settings, minGainFraction ?? DEFAULT_MIN_GAIN_FRACTION);
  return { kind: estimatedTokensFreed < floorTokens ? 'gain_too_small' : 'enough', added, estimatedTokensFreed, floorTokens };
}
