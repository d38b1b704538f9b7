/**
 * Whether to latch a new epoch: a pure decision shared by the proxy, `replay` and `demo`.
 *
 * The rule (docs/rescue.md explains it):
 * 1. The reading must be at or above a threshold: the fraction of the window, or the absolute
 *    token count (latch-threshold.ts), whichever it met first.
 * 2. The reading must come from a request that already carried every current epoch. A reading
 *    taken before the last epoch applied still shows the old size; latching on it would churn.
 * 3. The blocks the new epoch adds must free at least `minGainFraction` of the window (estimated
 *    tokens; of N ÷ threshold when the token threshold fired). Each epoch re-writes the provider's cache from its first new block onwards; a small
 *    gain would buy a cache re-write and bring the next crossing back within a turn or two.
 */
import { blockKeyOf, blockKeys, type KeyedBlock } from './block-key.js';
import type { FrozenBlock } from './epoch-types.js';
import { crossedThreshold, gainFloorTokens, tokenThresholdFor, type ThresholdCrossed, type ThresholdSettings } from './latch-threshold.js';
import type { PlannedBlock } from './plan-elision.js';

/** Each epoch must free at least this fraction of the window. */
export const DEFAULT_MIN_GAIN_FRACTION = 0.1;
/** Tokens per byte of request body, until a reading gives the conversation's own ratio. */
export const DEFAULT_TOKENS_PER_BYTE = 0.25;

/** The last usage reading of a conversation. */
export interface FullnessReading {
  /** input + cache creation + cache read tokens. */
  readonly contextTokens: number;
  readonly window: number;
  /** How many epochs the measured request carried. */
  readonly epochsApplied: number;
  /** Bytes of the measured request as sent upstream (for the tokens-per-byte estimate). */
  readonly requestBytes: number;
}

/**
 * What the decision reads of a planned block (`PlannedBlock`, or core/eligible-blocks.ts's
 * `EligibleBlock`): its name (an ordinal, or a part and its place: block-key.ts) and its bytes.
 */
export interface DecidedBlock extends KeyedBlock {
  readonly bytes: number;
}

/** Everything the decision looks at. */
export interface LatchInput<B extends DecidedBlock = PlannedBlock> {
  readonly reading: FullnessReading | undefined;
  /** e.g. 0.7 for `--rescue-pct 70`. */
  readonly threshold: number;
  /** `--rescue-tokens`: absent, the default for the reading's window; 0, none (latch-threshold.ts). */
  readonly rescueTokens?: number;
  /** Blocks frozen by the conversation's epochs so far. */
  readonly frozen: readonly FrozenBlock[];
  readonly epochCount: number;
  /** The plan for this request. */
  readonly plan: readonly B[];
  readonly minGainFraction?: number;
}

/** The decision, with its reason for the record and the wire log. */
export type LatchDecision<B extends DecidedBlock = PlannedBlock> =
  | { readonly latch: false; readonly why: 'no_reading' | 'below_threshold' | 'stale_reading' | 'nothing_new' | 'gain_too_small' }
  | {
      readonly latch: true;
      readonly fullness: number;
      readonly added: readonly B[];
      readonly estimatedTokensFreed: number;
      /** Which threshold the reading crossed. */
      readonly crossed: ThresholdCrossed;
      /** The token threshold in force, when one was. */
      readonly thresholdTokens?: number;
    };

/** Decides whether this request latches a new epoch. */
export function decideLatch<B extends DecidedBlock = PlannedBlock>(input: LatchInput<B>): LatchDecision<B> {
  const { reading } = input;
  if (reading === undefined) return { latch: false, why: 'no_reading' };
  const fullness = reading.contextTokens / reading.window;
  const settings = { threshold: input.threshold, ...(input.rescueTokens === undefined ? {} : { rescueTokens: input.rescueTokens }) };
  const crossed = crossedThreshold(reading, settings);
  if (crossed === undefined) return { latch: false, why: 'below_threshold' };
  if (reading.epochsApplied < input.epochCount) return { latch: false, why: 'stale_reading' };
  const weighed = weighAdded(reading, settings, input.frozen, input.plan, input.minGainFraction);
  if (weighed.kind !== 'enough') return { latch: false, why: weighed.kind };
  const { added, estimatedTokensFreed } = weighed;
  const thresholdTokens = tokenThresholdFor(settings, reading.window);
  return { latch: true, fullness, added, estimatedTokensFreed, crossed, ...(thresholdTokens === undefined ? {} : { thresholdTokens }) };
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

/** The conversation's tokens per body byte, from its last reading. */
export function tokensPerByteOf(reading: FullnessReading): number {
  return reading.requestBytes > 0 ? reading.contextTokens / reading.requestBytes : DEFAULT_TOKENS_PER_BYTE;
}

/** The reading's fullness: its context over its window. */
export function fullnessOf(reading: FullnessReading): number {
  return reading.window > 0 ? reading.contextTokens / reading.window : 0;
}
