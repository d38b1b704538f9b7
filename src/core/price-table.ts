/**
 * Prices per model, USD per million tokens. Source: Anthropic's pricing page,
 * https://platform.claude.com/docs/en/about-claude/pricing (model pricing table), as read on
 * 2026-11-30. Cache reads cost 0.1x base input, 5-minute cache writes 1.25x, 1-hour writes 2x:
 * the page lists them per model and they follow those multipliers for every model below.
 */

/** One model's prices, USD per million tokens. */
export interface ModelPrice {
  readonly input: number;
  readonly output: number;
}

/** The date the table was checked against its source. */
export const PRICE_TABLE_DATE = '2026-11-30';
export const PRICE_TABLE_SOURCE = 'https://platform.claude.com/docs/en/about-claude/pricing';
export const CACHE_READ_MULTIPLIER = 0.1;
export const CACHE_WRITE_5M_MULTIPLIER = 1.25;
export const CACHE_WRITE_1H_MULTIPLIER = 2;

/** Longest prefix first: `claude-opus-4-1` must win over `claude-opus-4`. */
const PRICES: ReadonlyArray<readonly [string, ModelPrice]> = [
  ['claude-opus-4-8', { input: 5, output: 25 }],
  ['claude-opus-4-7', { input: 5, output: 25 }],
  ['claude-opus-4-6', { input: 5, output: 25 }],
  ['claude-opus-4-5', { input: 5, output: 25 }],
  ['claude-opus-4-1', { input: 15, output: 75 }],
  ['claude-opus-4', { input: 15, output: 75 }],
  ['claude-sonnet-4-6', { input: 3, output: 15 }],
  ['claude-sonnet-4-5', { input: 3, output: 15 }],
  ['claude-sonnet-4', { input: 3, output: 15 }],
  ['claude-3-7-sonnet', { input: 3, output: 15 }],
  ['claude-haiku-4-5', { input: 1, output: 5 }],
  ['claude-3-5-haiku', { input: 0.8, output: 4 }],
];

/** The prices of a model id (dated ids like `claude-haiku-4-5-20251001` included), if known. */
export function priceOf(model: string): ModelPrice | undefined {
  const id = model.replace(/\[1m\]$/, '');
  return PRICES.find(([prefix]) => id === prefix || id.startsWith(`${prefix}-`))?.[1];
}
