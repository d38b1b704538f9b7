/** What every stub version shares: how it begins and how it names the elided files. */

/** How every pointer stub's text begins (and every stub of policy versions 1 and 2). */
export const STUB_PREFIX = '[ctxshed: tool result moved out of the context to save space; ';

/** How a `drop` stub's text begins (policy version 3): shorter, it says less. */
export const DROP_STUB_PREFIX = '[ctxshed: dropped ';

/**
 * The folder the stubs of a gateway name in place of a path (docs/team.md "Restores over the
 * gateway"): the person's agent cannot read the gateway's disk, so these stubs name the restore
 * tool and the handle instead. Never a real path (those are absolute), so no single-user stub changes.
 */
export const GATEWAY_STUB_DIR = 'ctxshed-gateway:';

/** Whether stubs for `dir` are a gateway's (they name the restore tool, not a file). */
export function isGatewayDir(dir: string): boolean {
  return dir === GATEWAY_STUB_DIR;
}

/** How a gateway's stub says where the text is kept, and how to get it (the restore tool, by sha256). */
export const GATEWAY_KEPT = "the ctxshed gateway keeps the full text: call ctxshed's restore tool with this sha256 to see it";

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
  if (rawSha256 === undefined) return '';
  return isGatewayDir(elidedDir) ? `; exact original JSON kept as sha256 ${rawSha256}` : `; exact original JSON in ${elidedRawPath(elidedDir, rawSha256)}`;
}

/** The same suffix as a regular expression source: group `raw` (a path's) or `graw` (a gateway's) is its sha256. */
export const RAW_SUFFIX_PATTERN = '(?:; exact original JSON (?:in .*/(?<raw>[0-9a-f]{64})\\.json|kept as sha256 (?<graw>[0-9a-f]{64})))?';

/** A string as a regular expression matching it literally. */
export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
