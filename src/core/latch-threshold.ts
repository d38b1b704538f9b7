/**
 * When a conversation is eligible to latch: its fullness reached `--rescue-pct` of the window, or
 * its prompt reached `--rescue-tokens`, whichever comes first (docs/rescue.md "Thresholds"). At a
 * 1M window the reason to take weight out is cost and attention, long before compaction: a 1M
 * window gets an absolute threshold by default. Pure.
 */
import { DEFAULT_CONTEXT_WINDOW } from './context-window.js';

/**
 * The token threshold a window over 200,000 gets when `--rescue-tokens` is not given: chosen from
 * replayed sessions (docs/rescue.md "Thresholds" has the figures and the command).
 */
export const DEFAULT_LONG_WINDOW_RESCUE_TOKENS = 120_000;

/** Which threshold a reading crossed: the fraction of the window, or the absolute token count. */
export type ThresholdCrossed = 'fullness' | 'tokens';

/**
 * What an epoch's reason records of the thresholds (epoch-types.ts `LatchReason`): which one the
 * reading crossed, and the token threshold in force. Only when one was in force: a reason without
 * them crossed the percentage, as every record before token thresholds did.
 */
export interface ThresholdFired {
  readonly crossed: ThresholdCrossed;
  readonly thresholdTokens: number;
}

/** The thresholds as configured. */
export interface ThresholdSettings {
  /** `--rescue-pct` as a fraction, e.g. 0.7. */
  readonly threshold: number;
  /**
   * `--rescue-tokens`: a prompt of this many tokens may latch, whatever the window. Absent: the
   * default for windows over 200,000 (`DEFAULT_LONG_WINDOW_RESCUE_TOKENS`), none for others;
   * 0: none at all.
   */
  readonly rescueTokens?: number;
}

/** What one reading needs for the decision. */
export interface ThresholdReading {
  readonly contextTokens: number;
  readonly window: number;
}

/** The token threshold in force for a window, or `undefined` when only the percentage applies. */
export function tokenThresholdFor(settings: ThresholdSettings, window: number): number | undefined {
  const { rescueTokens } = settings;
  if (rescueTokens === undefined) return window > DEFAULT_CONTEXT_WINDOW ? DEFAULT_LONG_WINDOW_RESCUE_TOKENS : undefined;
  return rescueTokens > 0 ? rescueTokens : undefined;
}

/**
 * The threshold this reading crossed, or `undefined` when it crossed neither. When it crossed
 * both, the lower one (in tokens) is named: that is the one a growing conversation met first.
 */
export function crossedThreshold(reading: ThresholdReading, settings: ThresholdSettings): ThresholdCrossed | undefined {
  const { contextTokens, window } = reading;
  const tokens = tokenThresholdFor(settings, window);
  const byTokens = tokens !== undefined && contextTokens >= tokens;
  const byFullness = window > 0 && contextTokens / window >= settings.threshold;
  if (byTokens && (!byFullness || tokens <= settings.threshold * window)) return 'tokens';
  return byFullness ? 'fullness' : undefined;
}

/**
 * The tokens an epoch must free: `minGainFraction` of the window, or, when the token threshold
 * is the one crossed, of the window at which the percentage would have meant that many tokens
 * (N ÷ threshold, at most the window). A gain judged against a 1M window would refuse every
 * latch a 150,000-token threshold allows; judged against N ÷ threshold it keeps the same
 * proportion to the threshold that the percentage's floor keeps to it.
 */
export function gainFloorTokens(reading: ThresholdReading, settings: ThresholdSettings, minGainFraction: number): number {
  const tokens = tokenThresholdFor(settings, reading.window);
  const crossed = crossedThreshold(reading, settings);
  if (crossed !== 'tokens' || tokens === undefined || settings.threshold <= 0) return minGainFraction * reading.window;
  return minGainFraction * Math.min(reading.window, tokens / settings.threshold);
}

/** The reason's threshold fields for a latch on this reading, or `undefined` when no token threshold was in force. */
export function firedThreshold(reading: ThresholdReading, settings: ThresholdSettings): ThresholdFired | undefined {
  const thresholdTokens = tokenThresholdFor(settings, reading.window);
  const crossed = crossedThreshold(reading, settings);
  return thresholdTokens === undefined || crossed === undefined ? undefined : { crossed, thresholdTokens };
}
