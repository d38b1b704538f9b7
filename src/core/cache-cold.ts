/**
 * Latching where the cache is cold anyway (issue 27, docs/rescue.md "Thresholds"): a request that
 * comes back after a gap longer than its cache's TTL re-writes its whole prefix whatever ctxshed
 * does, so an epoch latched on it costs no extra cache write. With a cold threshold configured,
 * such a request may latch from that lower fullness. The clock is the caller's: the engine reads
 * its clock port, replay the recorded request times. Pure.
 */
import type { ThresholdSettings } from './latch-threshold.js';

/** The Messages API's cache TTLs: five minutes by default, one hour when a breakpoint asks for it. */
export const CACHE_TTL_5M_MS = 5 * 60_000;
export const CACHE_TTL_1H_MS = 60 * 60_000;

/**
 * Whether the clock says the conversation's cached prefix has expired by now: the gap since its
 * last request passes the TTL (exactly the TTL is still warm, as the provider keeps an entry for
 * its TTL after its last use). No earlier request (`undefined`): nothing to say, not cold.
 */
export function isPredictedCold(gapMs: number | undefined, oneHourCache: boolean): boolean {
  if (gapMs === undefined || !Number.isFinite(gapMs)) return false;
  return gapMs > (oneHourCache ? CACHE_TTL_1H_MS : CACHE_TTL_5M_MS);
}

/** The thresholds as configured, with the cold one the engine may apply on a request predicted cold. */
export interface ColdThresholds extends ThresholdSettings {
  /** `--cold-rescue-pct` as a fraction; absent: a cold request has the usual threshold. */
  readonly coldThreshold?: number;
}

/** The thresholds in force for one request; `cold` when the cold threshold is the one in force (the epoch's reason records it). */
export type RequestThresholds = ThresholdSettings & { readonly cold?: true };

/**
 * The thresholds in force for one request: on a request predicted cold, the fraction is the cold
 * threshold when that is the lower; otherwise the settings as they are (the same value, not a
 * copy). The engine asks it once per request and hands the answer to every step after.
 */
export function thresholdsFor(settings: ColdThresholds, cold: boolean): RequestThresholds {
  const { coldThreshold } = settings;
  if (!cold || coldThreshold === undefined || !(coldThreshold > 0) || coldThreshold >= settings.threshold) return settings;
  return { ...settings, threshold: coldThreshold, cold: true };
}
