/**
 * yargs' own usage refusals, said as a person needs them. It refuses an unknown flag as "Unknown
 * arguments: rescue-pcnt, rescuePcnt": the flag twice (its camelCase twin), without its dashes, and
 * no word of what was meant; this names each unknown flag once, as typed, and the nearest flag the
 * command knows when one is near (`did you mean --rescue-pct?`). And "Not enough arguments
 * following: window" becomes `--window needs a value`. Pure: it reads the arguments, yargs'
 * message and the command's flag names.
 */

/** The line for yargs' `message`, or undefined when yargs' own words serve (a stray word, another refusal). */
export function usageMessage(argv: readonly string[], message: string, known: readonly string[]): string | undefined {
  const missing = /^Not enough arguments following: (.+)$/.exec(message);
  if (missing !== null) return `--${missing[1]} needs a value`;
  return unknownFlagsLine(argv, message, known);
}

/** What yargs' strict mode says of arguments it does not know. */
const UNKNOWN = /^Unknown arguments?: (.*)$/;

/**
 * One line for yargs' `message` when it is about unknown flags: each as typed in `argv` (up to
 * `--`), with a suggestion from `known` (the command's flag names, kebab case); undefined when the
 * message is another, or names no flag that was typed (a stray word: yargs' own words serve).
 */
export function unknownFlagsLine(argv: readonly string[], message: string, known: readonly string[]): string | undefined {
  const match = UNKNOWN.exec(message);
  if (match === null) return undefined;
  const unknown = new Set(match[1]!.split(', '));
  const end = argv.indexOf('--');
  // A `--no-x` yargs names as `x`.
  const isUnknown = (word: string): boolean => unknown.has(flagName(word)) || unknown.has(flagName(word).replace(/^no-/, ''));
  const typed = (end < 0 ? argv : argv.slice(0, end)).filter((word) => word.startsWith('-') && isUnknown(word));
  const flags = [...new Set(typed.map((word) => word.split('=')[0]!))];
  if (flags.length === 0) return undefined;
  const named = flags.map((flag) => ({ flag, near: nearestFlag(flagName(flag), known) }));
  const [only] = named;
  if (named.length === 1 && only !== undefined) return `unknown flag ${only.flag}${only.near === undefined ? '' : `; did you mean --${only.near}?`}`;
  return `unknown flags ${named.map(({ flag, near }) => (near === undefined ? flag : `${flag} (did you mean --${near}?)`)).join(', ')}`;
}

/** A typed flag's name as yargs reports it: no dashes, no `=value`. */
function flagName(word: string): string {
  return word.replace(/^-+/, '').split('=')[0]!;
}

/** The known flag nearest to `name` by edit distance, when one is near enough to be a typo of it. */
export function nearestFlag(name: string, known: readonly string[]): string | undefined {
  let best: { flag: string; distance: number } | undefined;
  for (const flag of known) {
    const distance = editDistance(name, flag);
    if (best === undefined || distance < best.distance) best = { flag, distance };
  }
  // A typo: a few letters off, never more than a third of the name.
  return best !== undefined && best.distance <= Math.max(1, Math.min(3, Math.floor(name.length / 3))) ? best.flag : undefined;
}

/** Levenshtein distance, with a swap of two neighbours counted as one edit. */
function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}
