/** Short ids, and finding what a full or short hex id names. Pure. */

/** How many hex digits a short id shows. */
export const SHORT_ID_CHARS = 12;

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
