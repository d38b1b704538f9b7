/**
 * A registered epoch kind's originals in the state directory (core/epochs/kind-info.ts
 * `registerEpochKind`): `<state>/<folder>/<sha256>.<ext>`, the folder the kind's record names,
 * made 0700 with its first file, each file 0600 and durable before a record names it, named by the
 * sha256 of its exact bytes. The built-in kinds keep their own paths (layout.ts).
 */
import path from 'node:path';
import { registeredKinds, type OriginalFileExt } from '../core/index.js';
import { isHex64, type StateDir } from './layout.js';
import { StateError } from './state-error.js';

/** Every extension an original file may have. */
export const ORIGINAL_EXTS: readonly OriginalFileExt[] = ['txt', 'json', 'md'];

/** Whether `folder` is a registered kind's (not a built-in's: those have paths of their own). */
export function isKindFolder(folder: string): boolean {
  return registeredKinds().some((k) => k.originals === folder);
}

/** `<state>/<folder>`; throws STATE_BAD_NAME unless a registered kind keeps its originals there. */
export function kindFolderPath(state: StateDir, folder: string): string {
  if (!isKindFolder(folder)) throw new StateError('STATE_BAD_NAME', `no registered epoch kind keeps its originals in ${JSON.stringify(folder.slice(0, 80))}`);
  return path.join(state.root, folder);
}

/** `<state>/<folder>/<sha256>.<ext>`; refuses a folder no registered kind has and a name that is not a sha256. */
export function kindOriginalPath(state: StateDir, folder: string, sha256: string, ext: OriginalFileExt): string {
  if (!isHex64(sha256)) throw new StateError('STATE_BAD_NAME', `sha256 must be 64 lowercase hex digits, got ${JSON.stringify(sha256.slice(0, 80))}`);
  return path.join(kindFolderPath(state, folder), `${sha256}.${ext}`);
}

/** The sha256 and extension of a file name in a registered kind's folder, or undefined for any other name. */
export function parseKindOriginalName(name: string): { readonly sha256: string; readonly ext: OriginalFileExt } | undefined {
  return parseOriginalName(name, ORIGINAL_EXTS);
}

/** A file name `<sha256>.<ext>` with one of `exts`: its sha256 and extension, or undefined for any other name. */
export function parseOriginalName(name: string, exts: readonly OriginalFileExt[]): { readonly sha256: string; readonly ext: OriginalFileExt } | undefined {
  const dot = name.indexOf('.');
  const sha256 = name.slice(0, dot);
  const ext = name.slice(dot + 1) as OriginalFileExt;
  return dot === 64 && isHex64(sha256) && exts.includes(ext) ? { sha256, ext } : undefined;
}
