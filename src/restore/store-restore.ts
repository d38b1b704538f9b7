/**
 * `restore` and `spans` read through a store (src/store/): what the gateway's restore routes
 * answer (docs/team.md). A state directory is read by the directory's own functions
 * (restore-text.ts, list-restorable.ts), which also know what only a directory has (seals, an
 * entry that is no regular file), so its answers stay exactly what they were; any other store
 * (Postgres) is read by its originals and records, each text re-hashed against its handle.
 */
import { epochKindInfos, renderingOf } from '../core/index.js';
import { sha256Hex } from '../state/sha256-hex.js';
import { FsStore, originalKey, type ConversationStore, type OriginalExt, type OriginalId, type OriginalKind } from '../store/index.js';
import { listRestorable, restorableFilesOf, restorableOf, sortedList, type Presence, type RestorableList } from './list-restorable.js';
import { parseHandle } from './restore-handle.js';
import { restoreText, type RestoreOutcome } from './restore-text.js';

/** A kind of restorable text as a store keeps it: its name, its folder and the extension it gives back. */
interface StoredKind {
  readonly name: string;
  readonly kind: OriginalKind;
  readonly ext: OriginalExt;
}

/** Every epoch kind that gives its originals back (core/epochs/kind-info.ts `restorable`), in the registry's order. */
function storedKinds(): readonly StoredKind[] {
  return epochKindInfos().flatMap((k) => (k.restorable === undefined ? [] : [{ name: k.restorable.name, kind: k.originals, ext: k.restorable.ext }]));
}

/** Restores the text `input` names from `store` (a sha256 or its first 12+ hex digits). */
export function restoreFromStore(store: ConversationStore, input: string): Promise<RestoreOutcome> {
  return store instanceof FsStore ? restoreText(store.state, input) : restoreOriginal(store, input);
}

/** Everything restorable in `store`, newest conversation first. */
export function listFromStore(store: ConversationStore): Promise<RestorableList> {
  return store instanceof FsStore ? listRestorable(store.state) : listOriginals(store);
}

/** Restores through the store's own reads: find the handle among the kinds, read it, re-hash it. */
export async function restoreOriginal(store: ConversationStore, input: string): Promise<RestoreOutcome> {
  const parsed = parseHandle(input);
  if (parsed.kind === 'invalid') return parsed;
  const found = new Map<string, StoredKind>();
  for (const kind of storedKinds()) {
    for (const handle of await store.findOriginals(kind.kind, kind.ext, parsed.prefix)) if (!found.has(handle)) found.set(handle, kind);
  }
  if (found.size === 0) return { kind: 'unknown', prefix: parsed.prefix };
  if (found.size > 1) return { kind: 'ambiguous', prefix: parsed.prefix, handles: [...found.keys()].sort() };
  const [[handle, kind]] = [...found.entries()] as [[string, StoredKind]];
  const bytes = await store.readOriginal(kind.kind, handle, kind.ext);
  if (bytes === undefined) return { kind: 'missing', handle };
  const actual = sha256Hex(bytes);
  if (actual !== handle) return { kind: 'corrupt', handle, actual };
  const rendering = renderingOf(kind.kind, bytes, handle);
  return { kind: 'restored', handle, source: kind.name, bytes: new Uint8Array(bytes), ...(rendering === undefined ? {} : { rendering }) };
}

/** Lists through the store's own reads: its records, and whether each original is kept (one call for all). */
export async function listOriginals(store: ConversationStore): Promise<RestorableList> {
  const records = (await store.listRecords()).filter((r) => r.epochs.length > 0);
  const ids: OriginalId[] = records.flatMap((r) =>
    r.epochs.flatMap((e) => restorableFilesOf(e).map((f) => ({ kind: f.folder, sha256: f.sha256, ext: f.ext }))),
  );
  const kept = await store.originalSizes(ids);
  const presence: Presence = {
    original: async (folder, sha256, ext) => kept.has(originalKey({ kind: folder, sha256, ext })),
    sealed: new Set(),
  };
  const conversations = await Promise.all(records.map((r) => restorableOf(r, presence)));
  return sortedList(conversations, []);
}
