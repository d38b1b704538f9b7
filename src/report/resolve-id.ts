/** Short ids, and finding what a full or short hex id names. Pure. */

/** How many hex digits a short id shows. */
export const SHORT_ID_CHARS = 12;
/** The shortest prefix `show` accepts: shorter ones name too much to be worth a guess. */
export const MIN_ID_CHARS = 6;

const HEX_ID = /^[0-9a-f]+$/i;

/** What an id can name: an elided file, a conversation, or a shed span (by its handle). */
export type IdKind = 'elided' | 'elided-json' | 'conversation' | 'span';

/** Something an id can name: an elided file (`.txt` or `.json`), a conversation key or a span's handle. */
export interface IdCandidate {
  /** 64 lowercase hex digits. */
  readonly id: string;
  readonly kind: IdKind;
}

/** What an id names. */
export type IdResolution =
  | { readonly kind: 'found'; readonly match: IdCandidate }
  | { readonly kind: 'none' }
  | { readonly kind: 'ambiguous'; readonly matches: readonly IdCandidate[] };

/** The first SHORT_ID_CHARS digits of a key or sha256. */
export function shortId(id: string): string {
  return id.slice(0, SHORT_ID_CHARS);
}

/**
 * Why `input` is not an id `show` takes, or undefined when it is one: MIN_ID_CHARS to 64 hex
 * digits and nothing else, so no path (`../x`, `/etc/passwd`) ever reaches the file system.
 */
export function checkHexId(input: string): string | undefined {
  if (!HEX_ID.test(input))
    return `${JSON.stringify(input.slice(0, 80))} is not a hex id (a sha256 or a conversation key, full or its first ${MIN_ID_CHARS}+ digits)`;
  if (input.length < MIN_ID_CHARS) return `${input} is too short: give at least ${MIN_ID_CHARS} hex digits`;
  if (input.length > 64) return `${input.slice(0, 70)}... is longer than a sha256 (64 hex digits)`;
  return undefined;
}

/** The one candidate `id` (full, or a prefix; any case) names, or every one it could mean. */
export function resolveId(id: string, candidates: readonly IdCandidate[]): IdResolution {
  const prefix = id.toLowerCase();
  const seen = new Set<string>();
  const matches = candidates.filter((c) => {
    const tag = `${c.kind}:${c.id}`;
    if (!c.id.startsWith(prefix) || seen.has(tag)) return false;
    seen.add(tag);
    return true;
  });
  if (matches.length === 0) return { kind: 'none' };
  if (matches.length === 1) return { kind: 'found', match: matches[0] as IdCandidate };
  return { kind: 'ambiguous', matches };
}
