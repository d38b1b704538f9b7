/**
 * The kinds of text a state directory can give back by handle. Today one: an elided tool result
 * (`elided/<sha256>.txt`). Shed mode adds spans (`spans/<handle>.json`) as a second kind; the
 * resolver and the tools work over the list, so a kind is added here and nowhere else.
 */
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import { elidedPath, parseElidedName, type StateDir } from '../state/layout.js';
import { sha256Hex } from '../state/sha256-hex.js';
import { hasErrnoCode } from '../state/state-error.js';

/** What reading a handle's text gave. */
export type KindRead =
  | { readonly kind: 'ok'; readonly bytes: Uint8Array }
  | { readonly kind: 'missing' }
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
    const names = await fs.readdir(state.elidedDir).catch((error: unknown) => {
      if (hasErrnoCode(error, 'ENOENT')) return [];
      throw error;
    });
    return names.map(parseElidedName).flatMap((p) => (p !== undefined && p.ext === 'txt' ? [p.sha256] : []));
  },
  async read(state, handle) {
    let bytes: Uint8Array;
    try {
      // O_NOFOLLOW: only the file ctxshed wrote, never what a planted link points at.
      bytes = await fs.readFile(elidedPath(state, handle, 'txt'), { flag: constants.O_RDONLY | constants.O_NOFOLLOW });
    } catch (error) {
      if (hasErrnoCode(error, 'ENOENT')) return { kind: 'missing' };
      throw error;
    }
    const actual = sha256Hex(bytes);
    return actual === handle ? { kind: 'ok', bytes } : { kind: 'corrupt', actual };
  },
};

/** The kinds `restore` and `spans` look through, in order. */
export const RESTORABLE_KINDS: readonly RestorableKind[] = [ELIDED_KIND];
