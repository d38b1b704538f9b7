/**
 * Prices per model, USD per million tokens, cache writes and reads included: models differ in
 * their cache multipliers (Opus 5.5 and Sonnet 5.5 read the cache at 0.05x input, Fable 5.1 at
 * 0.025x), so every row carries its own. Sources, as read on 2026-12-02:
 * - the model pricing table, https://platform.claude.com/docs/en/about-claude/pricing (Fable 5.1
 *   and 5, Opus 5 to 4, Sonnet 4.x, Haiku 4.5 and 3.5);
 * - each new model's overview page, https://platform.claude.com/docs/en/models/<model>/overview:
 *   opus-5-5 ($4/$20, writes $5/$8, reads $0.20), sonnet-5-5 ($2/$10, writes $2.50/$4, reads
 *   $0.20), sonnet-5 (the same), haiku-5-5 (two tiers: a prompt up to 100,000 tokens $0.10/$0.50,
 *   writes $0.125/$0.20, reads $0.01; over 100,000 tokens five times that).
 * A model not in the table is unknown: it is never priced as another (`priceOf` answers undefined).
 */

/** One model's prices, USD per million tokens. */
export interface ModelPrice {
  readonly input: number;
  readonly output: number;
  readonly cacheWrite5m: number;
  readonly cacheWrite1h: number;
  readonly cacheRead: number;
}

/** A model whose prompts over `aboveTokens` (input, cache reads and writes) are billed at `price`. */
interface TieredPrice {
  readonly base: ModelPrice;
  readonly over?: { readonly aboveTokens: number; readonly price: ModelPrice };
}

/** The date the table was checked against its sources. */
export const PRICE_TABLE_DATE = '2026-12-02';
export const PRICE_TABLE_SOURCE = 'https://platform.claude.com/docs/en/about-claude/pricing';
/** The multipliers most models follow (cache read 0.1x, 5-minute write 1.25x, 1-hour write 2x input). */
export const CACHE_READ_MULTIPLIER = 0.1;
export const CACHE_WRITE_5M_MULTIPLIER = 1.25;
export const CACHE_WRITE_1H_MULTIPLIER = 2;

/** A row at the usual multipliers, or with its own cache-read price. */
function price(input: number, output: number, cacheRead = input * CACHE_READ_MULTIPLIER): ModelPrice {
  return { input, output, cacheWrite5m: input * CACHE_WRITE_5M_MULTIPLIER, cacheWrite1h: input * CACHE_WRITE_1H_MULTIPLIER, cacheRead };
}

/** Longest prefix first: `claude-opus-4-1` must win over `claude-opus-4`, `claude-opus-5-5` over `claude-opus-5`. */
const PRICES: ReadonlyArray<readonly [string, TieredPrice]> = [
  ['claude-fable-5-1', { base: price(10, 50, 0.25) }],
  ['claude-mythos-5-1', { base: price(10, 50, 0.25) }],
  ['claude-fable-5', { base: price(10, 50) }],
  ['claude-mythos-5', { base: price(10, 50) }],
  ['claude-opus-5-5', { base: price(4, 20, 0.2) }],
  ['claude-opus-5', { base: price(5, 25) }],
  ['claude-opus-4-8', { base: price(5, 25) }],
  ['claude-opus-4-7', { base: price(5, 25) }],
  ['claude-opus-4-6', { base: price(5, 25) }],
  ['claude-opus-4-5', { base: price(5, 25) }],
  ['claude-opus-4-1', { base: price(15, 75) }],
  ['claude-opus-4', { base: price(15, 75) }],
  ['claude-sonnet-5-5', { base: price(2, 10, 0.2) }],
  ['claude-sonnet-5', { base: price(2, 10) }],
  ['claude-sonnet-4-6', { base: price(3, 15) }],
  ['claude-sonnet-4-5', { base: price(3, 15) }],
  ['claude-sonnet-4', { base: price(3, 15) }],
  ['claude-3-7-sonnet', { base: price(3, 15) }],
  ['claude-haiku-5-5', { base: price(0.1, 0.5, 0.01), over: { aboveTokens: 100_000, price: price(0.5, 2.5, 0.05) } }],
  ['claude-haiku-4-5', { base: price(1, 5) }],
  ['claude-3-5-haiku', { base: price(0.8, 4) }],
];

const DATED_SUFFIX = /^(-\d{8}|-latest)?$/;

/** The model ids the table prices (their prefixes), for a flag's choices and its error. */
export const PRICED_MODELS: readonly string[] = PRICES.map(([prefix]) => prefix);

/**
 * The prices of a model id (dated ids like `claude-haiku-4-5-20251001` and `[1m]` ids included),
 * at a prompt of `promptTokens` (input, cache reads and writes) where the model has tiers; undefined
 * when the model is not in the table.
 */
export function priceOf(model: string, promptTokens = 0): ModelPrice | undefined {
  const id = model.replace(/\[1m\]$/, '');
  // Only a date (or `-latest`) may follow the id: `claude-opus-5-7` is unknown, never `claude-opus-5`.
  const row = PRICES.find(([prefix]) => id.startsWith(prefix) && DATED_SUFFIX.test(id.slice(prefix.length)))?.[1];
  if (row === undefined) return undefined;
  return row.over !== undefined && promptTokens > row.over.aboveTokens ? row.over.price : row.base;
}

/** A request's cost in USD: uncached input, cache reads, 5-minute and 1-hour writes, output. */
export function costOf(
  p: ModelPrice,
  tokens: { readonly input: number; readonly cacheRead: number; readonly write5m: number; readonly write1h: number; readonly output: number },
): number {
  return (
    (p.input * tokens.input + p.cacheRead * tokens.cacheRead + p.cacheWrite5m * tokens.write5m + p.cacheWrite1h * tokens.write1h + p.output * tokens.output) /
    1e6
  );
}
