/**
 * A number flag's value, checked as given: yargs hands over a number, or the text when it is none
 * (the flags that use this declare no `type`, so `abc` is not turned into NaN), or a list when the
 * flag came twice. A refusal is a usage error (exit 2) that names the flag, what it takes and what
 * it was given, in one line.
 */
import { CliError } from './cli-error.js';

/** What a number flag takes: the words for it, and the test. */
export interface NumberKind {
  /** e.g. `a percentage above 0 and at most 100 (e.g. 70)`. */
  readonly takes: string;
  readonly accepts: (value: number) => boolean;
}

/** A percentage of the window, as `--rescue-pct` takes it. */
export const PERCENT_ABOVE_0: NumberKind = { takes: 'a percentage above 0 and at most 100 (e.g. 70)', accepts: (n) => n > 0 && n <= 100 };

/** A percentage that may be 0. */
export const PERCENT_FROM_0: NumberKind = { takes: 'a percentage from 0 to 100', accepts: (n) => n >= 0 && n <= 100 };

/** A whole number of at least `min` (of `unit`, when given). */
export function wholeNumber(min: number, unit?: string): NumberKind {
  return { takes: `a whole number${unit === undefined ? '' : ` of ${unit}`} >= ${min}`, accepts: (n) => Number.isInteger(n) && n >= min };
}

/** A plain decimal number as text (yargs leaves `07` as text): a person's way of writing one. */
const DECIMAL = /^-?(?:\d+\.?\d*|\.\d+)$/;

/** The value of `flag` (`--rescue-pct`), or undefined when it was not given; a CliError (exit 2) for anything `kind` refuses. */
export function numberFlag(flag: string, given: unknown, kind: NumberKind): number | undefined {
  if (given === undefined) return undefined;
  if (Array.isArray(given)) throw new CliError(`${flag} was given ${given.length} times (${given.map(shown).join(', ')}): give it once`, 2);
  const value = typeof given === 'number' ? given : typeof given === 'string' && DECIMAL.test(given.trim()) ? Number(given.trim()) : Number.NaN;
  if (!kind.accepts(value)) throw new CliError(`${flag} takes ${kind.takes}, not ${shown(given)}`, 2);
  return value;
}

// A value as the person typed it: a number bare, anything else quoted.
function shown(value: unknown): string {
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : JSON.stringify(String(value));
}
