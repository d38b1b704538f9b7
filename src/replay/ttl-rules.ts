/**
 * The two rules of the cache-TTL back-test: what the clock predicts, and what the provider billed.
 * Pure.
 *
 * - **Predicted**: cold when the time since the previous request's prefix was last written or
 *   read passes its TTL, else warm.
 * - **Billed**: warm when the next request read at least `WARM_READ_SHARE` of the previous
 *   request's cached prefix (its `cache_read + cache_creation`: everything up to its last
 *   breakpoint, which is what it left in the cache), else cold: the prefix was written again.
 */
import type { RecordedUsage } from './rebuild-conversations.js';
import { TTL_1H_MS, TTL_5M_MS } from './prompt-cache.js';

/** The TTLs the Messages API offers for `cache_control`. */
export type CacheTtl = '5m' | '1h';

/**
 * A read this close to the whole previous prefix is a hit on it. Not 100%: a client may move its
 * breakpoint back a little (a dropped thinking block); a real re-write re-sends everything after
 * the system prompt, far more than a tenth of the prefix past the first few turns.
 */
export const WARM_READ_SHARE = 0.9;
/** The band where a 5-minute cache is said to outlive its clock (seed 001): gaps over 5, up to 15 minutes. */
export const BAND_FROM_MS = 5 * 60_000;
export const BAND_TO_MS = 15 * 60_000;

/**
 * The TTL a request asked for, from how its writes were billed. The API requires 1-hour entries
 * before 5-minute ones, so when both appear the last breakpoint (the conversation's) is 5-minute.
 * Undefined when it wrote nothing, or when the usage has no split (older transcripts).
 */
export function ttlOfUsage(usage: RecordedUsage): CacheTtl | undefined {
  const write5m = usage.cacheWrite - usage.cacheWrite1h;
  if (write5m > 0) return '5m';
  return usage.cacheWrite1h > 0 ? '1h' : undefined;
}

/**
 * The TTL of each request's entry in one conversation: its own (`known`, e.g. from the body),
 * else what its writes were billed at, else the nearest earlier request's that says (a request
 * that wrote nothing keeps the TTL its conversation asks for), else the first later one's, else
 * the API's default of 5 minutes.
 */
export function conversationTtls(usages: readonly RecordedUsage[], known: readonly (CacheTtl | undefined)[] = []): CacheTtl[] {
  const ttls = usages.map((u, i) => known[i] ?? ttlOfUsage(u));
  let last = ttls.find((t) => t !== undefined) ?? '5m';
  return ttls.map((t) => (last = t ?? last));
}

/** The TTL in milliseconds. */
export function ttlMs(ttl: CacheTtl): number {
  return ttl === '1h' ? TTL_1H_MS : TTL_5M_MS;
}

/** The tokens a request left in the cache: everything up to its last breakpoint. */
export function cachedPrefixTokens(usage: RecordedUsage): number {
  return usage.cacheRead + usage.cacheWrite;
}

/** Whether the provider billed `next` as a hit on what `previous` left in the cache. */
export function isBilledWarm(previous: RecordedUsage, next: RecordedUsage): boolean {
  return next.cacheRead >= WARM_READ_SHARE * cachedPrefixTokens(previous);
}

/** Whether the clock says the prefix is still cached `gapMs` after it was last written or read. */
export function isPredictedWarm(gapMs: number, ttl: CacheTtl): boolean {
  // The provider keeps an entry for its TTL after its last use: exactly the TTL is still warm.
  return gapMs <= ttlMs(ttl);
}
