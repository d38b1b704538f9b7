/**
 * Where each epoch kind keeps its originals in a state directory (docs/state.md): the built-in
 * kinds' folders are the layout's (`elided/`, `spans/`, `thinking/`), a registered kind's its own
 * (kind-original.ts). The one table verify and the store ask, so neither branches on a kind.
 */
import path from 'node:path';
import type { OriginalFileExt } from '../core/index.js';
import { kindFolderPath } from './kind-original.js';
import { ELIDED_DIR_NAME, isHex64, SPANS_DIR_NAME, THINKING_DIR_NAME, type StateDir } from './layout.js';
import { StateError } from './state-error.js';
import { locateStoredFile, regularFileSize, type StoredFile } from './stored-file.js';

/** A kind's folder on disk: its path, and how findings name it (`spans` for the span kind's `span`). */
export interface OriginalsFolder {
  readonly dir: string;
  readonly label: string;
}

/** The layout's folders of the built-in kinds, by the folder their records name (`EpochKindInfo.originals`). */
const LAYOUT_FOLDERS: Readonly<Record<string, string>> = { elided: ELIDED_DIR_NAME, span: SPANS_DIR_NAME, thinking: THINKING_DIR_NAME };

/** Where `folder`'s originals lie; throws STATE_BAD_NAME for a folder no kind keeps (kind-original.ts). */
export function originalsFolderOf(state: StateDir, folder: string): OriginalsFolder {
  const label = LAYOUT_FOLDERS[folder];
  if (label !== undefined) return { dir: path.join(state.root, label), label };
  return { dir: kindFolderPath(state, folder), label: folder };
}

/** `<sha256>.<ext>` in `folder`'s originals; refuses a name that is not a sha256, so nothing escapes the folder. */
export function originalPathOf(state: StateDir, folder: string, sha256: string, ext: OriginalFileExt): string {
  if (!isHex64(sha256)) throw new StateError('STATE_BAD_NAME', `sha256 must be 64 lowercase hex digits, got ${JSON.stringify(sha256.slice(0, 80))}`);
  return path.join(originalsFolderOf(state, folder).dir, `${sha256}.${ext}`);
}

/**
 * Where one of a kind's originals is, `<sha256>.<ext>` in its folder, and its size, as a regular
 * file (a symlink does not count), or undefined when it is not there. A file of `elided/` that
 * `ctxshed seal` moved to `sealed/` is kept, so it is found there (docs/rescue.md "Sealing").
 */
export async function locateOriginal(state: StateDir, folder: string, sha256: string, ext: OriginalFileExt): Promise<StoredFile | undefined> {
  const file = originalPathOf(state, folder, sha256, ext);
  if (folder === ELIDED_DIR_NAME && ext !== 'md') return locateStoredFile(state, sha256, ext);
  const size = await regularFileSize(file);
  return size === undefined ? undefined : { path: file, where: 'own', size };
}

/** The size of one of a kind's originals as `locateOriginal` finds it, or undefined. */
export async function sizeOfOriginal(state: StateDir, folder: string, sha256: string, ext: OriginalFileExt): Promise<number | undefined> {
  return (await locateOriginal(state, folder, sha256, ext))?.size;
}
