/**
 * The `duplicate` rule: a block whose text (by sha256) appears again in a later tool result.
 * The later copy carries the same bytes, so the older one is `drop`.
 */

/**
 * The candidate ordinals whose text's sha256 is also a later tool result's. `textSha256[o]` is
 * the sha256 of tool result o's text (`undefined` when it has no text).
 */
export function findDuplicates(textSha256: ReadonlyArray<string | undefined>, candidates: readonly number[]): Set<number> {
  const last = new Map<string, number>();
  textSha256.forEach((sha, ordinal) => {
    if (sha !== undefined) last.set(sha, ordinal);
  });
  const duplicates = new Set<number>();
  for (const ordinal of candidates) {
    const sha = textSha256[ordinal];
    if (sha !== undefined && (last.get(sha) ?? -1) > ordinal) duplicates.add(ordinal);
  }
  return duplicates;
}
