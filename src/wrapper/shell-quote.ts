/** Quoting a word for a POSIX shell. */

/** `word` in single quotes for a POSIX shell (as it is when it needs none). */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_/.:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
