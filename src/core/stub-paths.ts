/** What every stub version shares: how it begins and how it names the elided files. */

/** How every pointer stub's text begins (and every stub of policy versions 1 and 2). */
export const STUB_PREFIX = '[ctxshed: tool result moved out of the context to save space; ';

/** How a `drop` stub's text begins (policy version 3): shorter, it says less. */
export const DROP_STUB_PREFIX = '[ctxshed: dropped ';

/** Absolute path of a block's elided text file. */
export function elidedTextPath(elidedDir: string, sha256: string): string {
  return `${elidedDir}/${sha256}.txt`;
}

/** Absolute path of the file that keeps a content value's exact original JSON bytes. */
export function elidedRawPath(elidedDir: string, rawSha256: string): string {
  return `${elidedDir}/${rawSha256}.json`;
}

/** The suffix naming the raw JSON file, when a block has one (every version writes it alike). */
export function rawSuffix(elidedDir: string, rawSha256: string | undefined): string {
  return rawSha256 === undefined ? '' : `; exact original JSON in ${elidedRawPath(elidedDir, rawSha256)}`;
}

/** The same suffix as a regular expression source: group `raw` is its sha256. */
export const RAW_SUFFIX_PATTERN = '(?:; exact original JSON in .*/(?<raw>[0-9a-f]{64})\\.json)?';

/** A string as a regular expression matching it literally. */
export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
