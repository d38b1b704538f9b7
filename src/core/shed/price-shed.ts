/**
 * Honest accounting of one shed epoch (seed 000's retraction): a shed token is worth what the
 * provider would have billed for it on a later turn. The warm part, which the provider was
 * already serving from its cache, saves only the cache-read marginal; the cold part saves a full
 * input price. Priced per epoch, never summed over a session, never as a ratio against cache reads.
 */

/** The figure's basis, stamped on it so it is never read without knowing how it was priced. */
export type ShedBasis = 'cache_read_marginal' | 'full_input' | 'blended';

/** What one epoch's shed is made of. */
export interface ShedPriceInput {
  /** Tokens the epoch stops sending on each later turn. */
  readonly shedTokens: number;
  /** Cache-read tokens of the reading the epoch latched on (what was warm). */
  readonly cacheReadTokens: number;
  /** Cache-read price as a multiple of the input price (0.1 on the Messages API). */
  readonly readMult?: number;
  /** Input price in dollars per million tokens, when the figure should be in dollars too. */
  readonly inputUsdPerMTok?: number;
}

/** The epoch's per-turn saving, in input-token equivalents (and dollars when priced). */
export interface ShedPrice {
  readonly shedTokens: number;
  readonly warmTokens: number;
  readonly coldTokens: number;
  /** warm × readMult + cold: what a later turn no longer pays, in full-price input tokens. */
  readonly inputTokenEquivalent: number;
  readonly usdPerTurn?: number;
  readonly basis: ShedBasis;
  /** Always 'epoch': a figure for one epoch, per later turn. */
  readonly per: 'epoch';
}

export const DEFAULT_READ_MULT = 0.1;

/** Prices one epoch's shed per later turn. */
export function priceShed(input: ShedPriceInput): ShedPrice {
  const shedTokens = Math.max(0, input.shedTokens);
  const warmTokens = Math.min(shedTokens, Math.max(0, input.cacheReadTokens));
  const coldTokens = shedTokens - warmTokens;
  const inputTokenEquivalent = warmTokens * (input.readMult ?? DEFAULT_READ_MULT) + coldTokens;
  const basis: ShedBasis = coldTokens === 0 ? 'cache_read_marginal' : warmTokens === 0 ? 'full_input' : 'blended';
  const price = { shedTokens, warmTokens, coldTokens, inputTokenEquivalent, basis, per: 'epoch' as const };
  return input.inputUsdPerMTok === undefined ? price : { ...price, usdPerTurn: (inputTokenEquivalent * input.inputUsdPerMTok) / 1e6 };
}
