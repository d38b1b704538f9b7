/**
 * The kinds of text a state directory can give back by handle: an elided tool result
 * (`elided/<sha256>.txt`) and, in shed mode, a shed span (`spans/<sha256>.json`). The resolver
 * and the tools work over the list; a registered epoch kind (core/epochs/kind-info.ts) that says
 * `restorable` joins it by `restorableKinds`.
 */
import fs from 'node:fs/promises';
import { type EpochKindInfo, registeredKinds, renderSpanMarkdown } from '../core/index.js';
import { kindFolderPath, kindOriginalPath, parseKindOriginalName } from '../state/kind-original.js';
import { elidedPath, parseElidedName, parseSpanName, spanPath, type StateDir } from '../state/layout.js';
import { readContainedFile } from '../state/read-contained.js';
import { sha256Hex } from '../state/sha256-hex.js';
import { hasErrnoCode } from '../state/state-error.js';

/** What reading a handle's text gave. */
export type KindRead =
  /**
   * `bytes` hash to the handle. `rendering`, when there is one, is what the model is given
   * instead of the bytes: made from those verified bytes just now, never read from another file.
   */
  | { readonly kind: 'ok'; readonly bytes: Uint8Array; readonly rendering?: string }
  | { readonly kind: 'missing' }
  /** The entry is no regular file inside the state directory (a FIFO, a link out): never read. */
  | { readonly kind: 'refused'; readonly why: string }
  /** The file no longer hashes to its name: never handed out. */
  | { readonly kind: 'corrupt'; readonly actual: string };

/** One kind of restorable text. */
export interface RestorableKind {
  /** Its name, as the tools print it. */
  readonly name: string;
  /** Every handle (64 lowercase hex) this kind holds now. */
  handles(state: StateDir): Promise<string[]>;
  /** The text of `handle`, re-hashed against it. */
  read(state: StateDir, handle: string): Promise<KindRead>;
}

/** Elided tool results: `elided/<sha256>.txt`, the text exactly as the model saw it. */
export const ELIDED_KIND: RestorableKind = {
  name: 'elided tool result',
  async handles(state) {
    return (await namesIn(state.elidedDir)).map(parseElidedName).flatMap((p) => (p !== undefined && p.ext === 'txt' ? [p.sha256] : []));
  },
  async read(state, handle) {
    const read = await readContainedFile(state.root, elidedPath(state, handle, 'txt'));
    if (read.kind !== 'ok') return read;
    const actual = sha256Hex(read.bytes);
    return actual === handle ? { kind: 'ok', bytes: read.bytes } : { kind: 'corrupt', actual };
  },
};

/**
 * Shed spans: `spans/<sha256>.json`, the messages' exact bytes, checked against the handle; the
 * model is given their readable rendering (docs/shed.md, "Getting a span back"). The rendering is
 * made from the verified `.json` just now rather than read from `spans/<sha256>.md`: the `.md` is
 * not named by its own hash, so only re-rendering could check it, and then the re-rendering is the
 * answer. It is the same pure function that wrote the `.md`, so the two agree while the `.md` is intact.
 */
export const SPAN_KIND: RestorableKind = {
  name: 'shed span',
  async handles(state) {
    return (await namesIn(state.spansDir)).map(parseSpanName).flatMap((p) => (p !== undefined && p.ext === 'json' ? [p.sha256] : []));
  },
  async read(state, handle) {
    const read = await readContainedFile(state.root, spanPath(state, handle, 'json'));
    if (read.kind !== 'ok') return read;
    const actual = sha256Hex(read.bytes);
    return actual === handle ? { kind: 'ok', bytes: read.bytes, rendering: renderSpanMarkdown(read.bytes, handle) } : { kind: 'corrupt', actual };
  },
};

/** The kinds `restore` and `spans` look through, in order. */
export const RESTORABLE_KINDS: readonly RestorableKind[] = [ELIDED_KIND, SPAN_KIND];

/**
 * A registered epoch kind's originals by handle (core/epochs/kind-info.ts `restorable`):
 * `<state>/<folder>/<sha256>.<ext>`, the exact bytes, checked against the handle, rendered when
 * the kind renders them.
 */
export function registeredRestorable(kind: EpochKindInfo): RestorableKind | undefined {
  const { restorable } = kind;
  if (restorable === undefined) return undefined;
  return {
    name: restorable.name,
    async handles(state) {
      return (await namesIn(kindFolderPath(state, kind.originals)))
        .map(parseKindOriginalName)
        .flatMap((p) => (p !== undefined && p.ext === restorable.ext ? [p.sha256] : []));
    },
    async read(state, handle) {
      const read = await readContainedFile(state.root, kindOriginalPath(state, kind.originals, handle, restorable.ext));
      if (read.kind !== 'ok') return read;
      const actual = sha256Hex(read.bytes);
      if (actual !== handle) return { kind: 'corrupt', actual };
      const rendering = kind.render?.(read.bytes, handle);
      return { kind: 'ok', bytes: read.bytes, ...(rendering === undefined ? {} : { rendering }) };
    },
  };
}

/** The kinds `restore` looks through now: the built-ins, then each registered kind that gives its originals back. */
export function restorableKinds(): readonly RestorableKind[] {
  return [...RESTORABLE_KINDS, ...registeredKinds().flatMap((k) => registeredRestorable(k) ?? [])];
}

/** The names in a folder; none when it does not exist (spans/ appears with the first shed epoch). */
async function namesIn(dir: string): Promise<string[]> {
  return fs.readdir(dir).catch((error: unknown) => {
    if (hasErrnoCode(error, 'ENOENT')) return [];
    throw error;
  });
}
