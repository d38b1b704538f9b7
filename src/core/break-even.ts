/**
 * The burst gate (seed 001): a shed epoch re-writes the provider's cache for everything after the
 * span, once, and saves a cache read of the shed tokens on every later turn. It latches only when
 * the turns left are enough to pay that back:
 *
 *   break_even_turns = ceil((write_mult - read_mult) * invalidated_suffix_tokens
 *                           / (read_mult * dropped_cached_tokens))
 *
 * The multipliers are those of the cache the request asks for: 1.25 (write) and 0.1 (read) for the
 * default five minutes, 2.0 and 0.1 for one hour.
 *
 * Near the window the formula's alternative (go on reading the cache) no longer exists: Claude
 * Code compacts its transcript at about 94% of the window (the window less about 13k tokens), and
 * the API refuses a request over it. A compaction re-writes the whole cache anyway and loses the
 * text. So from GATE_CEILING on, an epoch latches whether or not it pays back, and says so.
 */

/** Cache multipliers of input price: writing a prefix, reading it back. */
export interface CacheMultipliers {
  readonly write: number;
  readonly read: number;
}

/** The fullness (context ÷ window) from which the gate never holds an epoch back. */
export const GATE_CEILING = 0.85;

export const FIVE_MINUTE_CACHE: CacheMultipliers = { write: 1.25, read: 0.1 };
export const ONE_HOUR_CACHE: CacheMultipliers = { write: 2.0, read: 0.1 };

/** What the gate weighs. */
export interface GateInput {
  /** Tokens after the span that are warm now and must be written again (the invalidated suffix). */
  readonly invalidatedSuffixTokens: number;
  /** Tokens the epoch stops sending, that were read from the cache on every turn. */
  readonly droppedCachedTokens: number;
  /** Turns (model calls) the conversation has had so far. */
  readonly turnsSoFar: number;
  /** `--horizon N`: the turns still expected; by default as many more as it has had. */
  readonly horizon?: number;
  /** The request asks for a one-hour cache. */
  readonly oneHourCache: boolean;
  /** The reading's fullness (context ÷ window), when known: from GATE_CEILING on, the gate gives way. */
  readonly fullness?: number;
}

/** The gate's figures and decision, as the epoch records them. */
export interface GateDecision {
  readonly writeMult: number;
  readonly readMult: number;
  readonly invalidatedSuffixTokens: number;
  readonly droppedCachedTokens: number;
  /** `null` when nothing cached is dropped: the burst never pays back. */
  readonly breakEvenTurns: number | null;
  readonly expectedRemainingTurns: number;
  readonly horizonFrom: 'horizon' | 'turns_so_far';
  readonly latch: boolean;
  /**
   * Present when the burst does not pay back and latches anyway: the fullness that reached
   * GATE_CEILING (rounded to 4 places).
   */
  readonly forcedAt?: number;
}

/** Whether a burst pays back within the turns left, with the figures for the record. */
export function decideBurst(input: GateInput): GateDecision {
  const multipliers = input.oneHourCache ? ONE_HOUR_CACHE : FIVE_MINUTE_CACHE;
  const suffix = Math.max(0, input.invalidatedSuffixTokens);
  const dropped = Math.max(0, input.droppedCachedTokens);
  const cost = (multipliers.write - multipliers.read) * suffix;
  let breakEvenTurns: number | null;
  if (cost === 0) breakEvenTurns = 0;
  else if (dropped === 0) breakEvenTurns = null;
  else breakEvenTurns = Math.ceil(cost / (multipliers.read * dropped));
  const fromHorizon = input.horizon !== undefined;
  const expectedRemainingTurns = Math.max(0, fromHorizon ? input.horizon! : input.turnsSoFar);
  const paysBack = breakEvenTurns !== null && breakEvenTurns <= expectedRemainingTurns;
  const forced = !paysBack && dropped > 0 && input.fullness !== undefined && input.fullness >= GATE_CEILING;
  return {
    writeMult: multipliers.write,
    readMult: multipliers.read,
    invalidatedSuffixTokens: suffix,
    droppedCachedTokens: dropped,
    breakEvenTurns,
    expectedRemainingTurns,
    horizonFrom: fromHorizon ? 'horizon' : 'turns_so_far',
    latch: paysBack || forced,
    ...(forced ? { forcedAt: Math.round(input.fullness! * 10_000) / 10_000 } : {}),
  };
}
