/** Which one restorable thing a handle names, across every kind and the sealed blocks. */
import type { StateDir } from '../state/layout.js';
import { listSealedShas } from '../state/seal-block.js';
import type { RestorableKind } from './restorable-kinds.js';

/** What a handle prefix names. */
export type Resolved =
  | { readonly kind: 'one'; readonly handle: string; readonly source: RestorableKind | undefined; readonly sealed: boolean }
  | { readonly kind: 'none' }
  | { readonly kind: 'ambiguous'; readonly handles: readonly string[] };

/**
 * Resolves `prefix` (already parsed) against the kinds' handles and the sealed ones. A sealed
 * block's text is in no kind's folder any more, so it is looked up on its own: a sealed handle
 * resolves (and is then refused), it is never "unknown".
 */
export async function resolveHandle(state: StateDir, prefix: string, kinds: readonly RestorableKind[]): Promise<Resolved> {
  const found = new Map<string, RestorableKind | undefined>();
  for (const kind of kinds) {
    for (const handle of await kind.handles(state)) if (handle.startsWith(prefix) && !found.has(handle)) found.set(handle, kind);
  }
  const sealed = await listSealedShas(state);
  for (const handle of sealed) if (handle.startsWith(prefix) && !found.has(handle)) found.set(handle, undefined);
  if (found.size === 0) return { kind: 'none' };
  if (found.size > 1) return { kind: 'ambiguous', handles: [...found.keys()].sort() };
  const [[handle, source]] = [...found.entries()] as [[string, RestorableKind | undefined]];
  return { kind: 'one', handle, source, sealed: sealed.has(handle) };
}
