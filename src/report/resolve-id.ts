/** Short ids, and finding what a full or short hex id names. Pure. */
import type { OriginalFileExt } from '../core/index.js';

/** How many hex digits a short id shows. */
export const SHORT_ID_CHARS = 12;

/** What an id can name: a conversation (by its key), or an original in some epoch kind's folder (core/epochs/kind-info.ts `shown`). */
export type IdKind = 'conversation' | 'original';

/** Something an id can name: a conversation key, or one of a kind's exact files (`of`: the kind's tag and the file's extension). */
export interface IdCandidate {
  /** 64 lowercase hex digits. */
  readonly id: string;
  readonly kind: IdKind;
  /** An original's kind (its tag) and its file's extension; only for `original`. */
  readonly of?: { readonly tag: string; readonly ext: OriginalFileExt };
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
    const tag = `${c.kind}:${c.of?.tag ?? ''}:${c.id}`;
    if (!c.id.startsWith(prefix) || seen.has(tag)) return false;
    seen.add(tag);
    return true;
  });
  if (matches.length === 0) return { kind: 'none' };
  if (matches.length === 1) return { kind: 'found', match: matches[0] as IdCandidate };
  return { kind: 'ambiguous', matches };
}
