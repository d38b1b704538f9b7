/**
 * Where a content-addressed file of the state directory is now: in `elided/`, where stubs name it
 * and the read grant covers it, or in `sealed/`, where `ctxshed seal` moved it. Either way its
 * bytes are kept, so inflate and the latch treat both as present (docs/rescue.md, "Sealing").
 */
import fs from 'node:fs/promises';
import { elidedPath, sealedPath, type ElidedExt, type StateDir } from './layout.js';
import { hasErrnoCode } from './state-error.js';

/** Which folder holds a file: elided/, sealed/, or (`own`) the folder of the kind it is an original of (originals-folder.ts). */
export type StoredWhere = 'elided' | 'sealed' | 'own';

/** A file found by `locateStoredFile`. */
export interface StoredFile {
  readonly path: string;
  readonly where: StoredWhere;
  readonly size: number;
}

/** The regular file `<sha256>.<ext>` in elided/, else in sealed/, else undefined (a symlink does not count). */
export async function locateStoredFile(state: StateDir, sha256: string, ext: ElidedExt): Promise<StoredFile | undefined> {
  for (const [where, file] of [
    ['elided', elidedPath(state, sha256, ext)],
    ['sealed', sealedPath(state, sha256, ext)],
  ] as const) {
    const size = await regularFileSize(file);
    if (size !== undefined) return { path: file, where, size };
  }
  return undefined;
}

/** The size of `file` if it is a regular file (not followed through a link), else undefined when it is not there. */
export async function regularFileSize(file: string): Promise<number | undefined> {
  try {
    const stat = await fs.lstat(file);
    return stat.isFile() ? stat.size : undefined;
  } catch (error) {
    if (hasErrnoCode(error, 'ENOENT') || hasErrnoCode(error, 'ENOTDIR')) return undefined;
    throw error;
  }
}
