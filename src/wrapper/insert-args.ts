/** Putting words into a command line without touching the ones that are there. */

/**
 * `argv` with `words` inserted before index `at` (1: right after the executable). Every word of
 * `argv` keeps its order and its text; the result without `words` is `argv` again.
 */
export function insertArgs(argv: readonly string[], at: number, words: readonly string[]): string[] {
  if (!Number.isInteger(at) || at < 1 || at > argv.length) throw new RangeError(`insert position ${at} is outside 1..${argv.length}`);
  return [...argv.slice(0, at), ...words, ...argv.slice(at)];
}
