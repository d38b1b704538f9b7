/**
 * Where each epoch kind keeps its originals in a state directory (docs/state.md): the folder its
 * record names (`EpochKindInfo.originals`, or its `dirName` when the state's folder is named
 * otherwise), so verify, restore, inflate and the store ask the kinds and never branch on one.
 */
import path from 'node:path';
import { kindOfOriginals, type EpochKindInfo, type OriginalFileExt } from '../core/index.js';
import { isHex64, sealedPath, type StateDir } from './layout.js';
import { StateError } from './state-error.js';
import { regularFileSize, type StoredFile } from './stored-file.js';

/** A kind's folder on disk: its path, and how findings name it (`spans` for the span kind's `span`). */
export interface OriginalsFolder {
  readonly dir: string;
  readonly label: string;
}

/** The kind that keeps its originals in `folder`; throws STATE_BAD_NAME for a folder no kind keeps. */
function kindKeeping(folder: string): EpochKindInfo {
  const kind = kindOfOriginals(folder);
  if (kind === undefined) throw new StateError('STATE_BAD_NAME', `no epoch kind keeps its originals in ${JSON.stringify(folder.slice(0, 80))}`);
  return kind;
}

/** Where `folder`'s originals lie; throws STATE_BAD_NAME for a folder no kind keeps. */
export function originalsFolderOf(state: StateDir, folder: string): OriginalsFolder {
  const { dirName, originals } = kindKeeping(folder);
  const label = dirName ?? originals;
  return { dir: path.join(state.root, label), label };
}

/** `<sha256>.<ext>` in `folder`'s originals; refuses a name that is not a sha256, so nothing escapes the folder. */
export function originalPathOf(state: StateDir, folder: string, sha256: string, ext: OriginalFileExt): string {
  if (!isHex64(sha256)) throw new StateError('STATE_BAD_NAME', `sha256 must be 64 lowercase hex digits, got ${JSON.stringify(sha256.slice(0, 80))}`);
  return path.join(originalsFolderOf(state, folder).dir, `${sha256}.${ext}`);
}

/**
 * Where one of a kind's originals is, `<sha256>.<ext>` in its folder, and its size, as a regular
 * file (a symlink does not count), or undefined when it is not there. An exact file of a kind
 * `ctxshed seal` may seal (`sealable`) that it moved to `sealed/` is kept, so it is found there
 * (docs/rescue.md "Sealing").
 */
export async function locateOriginal(state: StateDir, folder: string, sha256: string, ext: OriginalFileExt): Promise<StoredFile | undefined> {
  const file = originalPathOf(state, folder, sha256, ext);
  const own = await regularFileSize(file);
  if (own !== undefined) return { path: file, where: 'own', size: own };
  if (kindKeeping(folder).sealable !== true || ext === 'md') return undefined;
  const sealed = sealedPath(state, sha256, ext);
  const size = await regularFileSize(sealed);
  return size === undefined ? undefined : { path: sealed, where: 'sealed', size };
}

/** The size of one of a kind's originals as `locateOriginal` finds it, or undefined. */
export async function sizeOfOriginal(state: StateDir, folder: string, sha256: string, ext: OriginalFileExt): Promise<number | undefined> {
  return (await locateOriginal(state, folder, sha256, ext))?.size;
}
