/**
 * An original is what its name says (issue 41): before a stub names an original that exists, its
 * size is the one its epoch recorded and its bytes hash to its name. A text appended to
 * `elided/<sha>.txt` was named by the stubs of a resumed session, and the model's read-back got the
 * altered text; only `verify` noticed. The check is one ask of the store for every original not
 * yet known good (`originalDigests`: read and hashed on a directory, hashed by Postgres itself),
 * once per original and process: an original found good stays good for the process (originals
 * are never rewritten by ctxshed), one found changed is asked again on the next request.
 * FileAvailability calls it; what it finds changed is the engine's to report.
 */
import type { OriginalProblem } from '../core/original-problems.js';
import { originalKey, type ConversationStore, type OriginalId } from '../store/index.js';

/** An original a stub would name, and the size its epoch recorded (absent: the record keeps none, a span's rendering). */
export interface WantedOriginal {
  readonly id: OriginalId;
  readonly bytes?: number | undefined;
}

/** How one original checked out. */
export type OriginalVerdict =
  | { readonly kind: 'good' }
  | { readonly kind: 'missing' }
  | { readonly kind: 'changed'; readonly problem: OriginalProblem; readonly detail: string };

/** A span's readable rendering is made from its exact bytes, not named by its own hash: its presence is what is asked. */
const SELF_NAMED = (id: OriginalId): boolean => id.ext !== 'md';

/** Each of `wanted`'s verdict, by `originalKey`; one the store cannot answer for is missing (a stub never names it). */
export async function checkOriginals(store: ConversationStore, wanted: readonly WantedOriginal[]): Promise<Map<string, OriginalVerdict>> {
  const verdicts = new Map<string, OriginalVerdict>();
  if (wanted.length === 0) return verdicts;
  const digests = await store.originalDigests(wanted.map((w) => w.id)).catch(() => new Map<string, never>());
  for (const w of wanted) {
    const key = originalKey(w.id);
    const digest = digests.get(key);
    const name = `${w.id.kind}/${w.id.sha256}.${w.id.ext}`;
    if (digest === undefined) verdicts.set(key, { kind: 'missing' });
    else if (w.bytes !== undefined && digest.size !== w.bytes)
      verdicts.set(key, { kind: 'changed', problem: 'original_size', detail: `${name} holds ${digest.size} bytes where its epoch recorded ${w.bytes}` });
    else if (SELF_NAMED(w.id) && digest.sha256 !== w.id.sha256)
      verdicts.set(key, { kind: 'changed', problem: 'original_hash', detail: `${name} hashes to ${digest.sha256}, not to its name` });
    else verdicts.set(key, { kind: 'good' });
  }
  return verdicts;
}
