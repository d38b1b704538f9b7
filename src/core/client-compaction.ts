/**
 * Where Claude Code compacts a conversation on its own, in its tokens (the last response's input,
 * cache and output tokens), and how `CLAUDE_CODE_AUTO_COMPACT_WINDOW` moves it. Both the proxy
 * (the burst gate's ceiling) and `replay` (the runway) ask this. Pure.
 *
 * The rule (docs/rescue.md, "The client's compaction point"): the effective window is the model's
 * window, or the variable's when smaller; the client compacts at that window less the output it
 * reserves (at most 20,000 tokens) and a buffer of 13,000 tokens: 167,000 of 200,000.
 *
 * The variable is read as Claude Code 2.1.332 reads it (its binary): trimmed, a `k` or `m` suffix
 * (case-blind) multiplies by 1,000 or 1,000,000, anything else is a plain number; a value under
 * 100,000 counts as 100,000; a value that is not a positive whole number is ignored.
 */

/** The output tokens Claude Code reserves below the window (its cap on the summary's output). */
export const CLIENT_OUTPUT_RESERVE_TOKENS = 20_000;
/** The buffer below the effective window at which Claude Code's auto-compaction fires. */
export const AUTOCOMPACT_BUFFER_TOKENS = 13_000;
/** The smallest window the variable may set; a smaller value counts as this. */
export const MIN_AUTO_COMPACT_WINDOW = 100_000;

/** `CLAUDE_CODE_AUTO_COMPACT_WINDOW` in tokens, or `undefined` when unset or unusable. */
export function parseAutoCompactWindow(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  const suffix = text.slice(-1).toLowerCase();
  const scale = suffix === 'm' ? 1_000_000 : suffix === 'k' ? 1_000 : undefined;
  const number = scale === undefined ? Number(text) : Number.parseFloat(text.slice(0, -1)) * scale;
  const tokens = Math.round(number);
  if (!Number.isSafeInteger(tokens) || tokens < 1) return undefined;
  return Math.max(tokens, MIN_AUTO_COMPACT_WINDOW);
}

/** The window Claude Code compacts against: the model's, or the variable's when smaller. */
export function effectiveCompactWindow(window: number, autoCompactWindow: number | undefined): number {
  return autoCompactWindow === undefined ? window : Math.min(window, autoCompactWindow);
}

/**
 * The tokens at which Claude Code compacts a conversation of `window`, given the variable's value
 * in tokens (`parseAutoCompactWindow`); `marginTokens` replaces the rule's margin (replay measures
 * it from a session's own boundary). Never below one token.
 */
export function clientCompactionPoint(
  window: number,
  autoCompactWindow: number | undefined,
  marginTokens: number = CLIENT_OUTPUT_RESERVE_TOKENS + AUTOCOMPACT_BUFFER_TOKENS,
): number {
  return Math.max(1, effectiveCompactWindow(window, autoCompactWindow) - marginTokens);
}
