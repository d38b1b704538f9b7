/**
 * The kinds of text a state directory can give back by handle: every epoch kind whose record says
 * `restorable` (core/epochs/kind-info.ts), by one path: an elided tool result
 * (`elided/<sha256>.txt`), in shed mode a shed span (`spans/<sha256>.json`, rendered), and a
 * registered kind's originals in its folder. The resolver and the tools work over the list.
 */
import fs from 'node:fs/promises';
import { epochKindInfos, type EpochKindInfo } from '../core/index.js';
import type { StateDir } from '../state/layout.js';
import { parseOriginalName } from '../state/kind-original.js';
import { originalPathOf, originalsFolderOf } from '../state/originals-folder.js';
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
  /** The folder its originals are kept in (the kind's `originals`: `elided`, `span`, a registered kind's own). */
  readonly folder: string;
  /** Every handle (64 lowercase hex) this kind holds now. */
  handles(state: StateDir): Promise<string[]>;
  /** The text of `handle`, re-hashed against it. */
  read(state: StateDir, handle: string): Promise<KindRead>;
}

/**
 * An epoch kind's originals by handle (its record's `restorable`): `<sha256>.<ext>` in its folder,
 * the exact bytes, checked against the handle, and rendered when the kind renders them. A span's
 * rendering is made from the verified `.json` just now rather than read from its `.md`: the `.md`
 * is not named by its own hash, so only re-rendering could check it, and then the re-rendering is
 * the answer (docs/shed.md, "Getting a span back").
 */
export function restorableOf(kind: EpochKindInfo): RestorableKind | undefined {
  const { restorable } = kind;
  if (restorable === undefined) return undefined;
  return {
    name: restorable.name,
    folder: kind.originals,
    async handles(state) {
      return (await namesIn(originalsFolderOf(state, kind.originals).dir)).flatMap((name) => {
        const parsed = parseOriginalName(name, [restorable.ext]);
        return parsed === undefined ? [] : [parsed.sha256];
      });
    },
    async read(state, handle) {
      const read = await readContainedFile(state.root, originalPathOf(state, kind.originals, handle, restorable.ext));
      if (read.kind !== 'ok') return read;
      const actual = sha256Hex(read.bytes);
      if (actual !== handle) return { kind: 'corrupt', actual };
      const rendering = kind.render?.(read.bytes, handle);
      return { kind: 'ok', bytes: read.bytes, ...(rendering === undefined ? {} : { rendering }) };
    },
  };
}

/** The kinds `restore` and `spans` look through now, in the registry's order: the built-ins, then each registered kind that gives its originals back. */
export function restorableKinds(): readonly RestorableKind[] {
  return epochKindInfos().flatMap((kind) => restorableOf(kind) ?? []);
}

/** The names in a folder; none when it does not exist (spans/ appears with the first shed epoch). */
async function namesIn(dir: string): Promise<string[]> {
  return fs.readdir(dir).catch((error: unknown) => {
    if (hasErrnoCode(error, 'ENOENT') || hasErrnoCode(error, 'ENOTDIR')) return [];
    throw error;
  });
}
