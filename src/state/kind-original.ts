/**
 * The names of an epoch kind's original files in the state directory (originals-folder.ts):
 * `<sha256>.<ext>`, named by the sha256 of their exact bytes.
 */
import type { OriginalFileExt } from '../core/index.js';
import { isHex64 } from './layout.js';

/** Every extension an original file may have. */
export const ORIGINAL_EXTS: readonly OriginalFileExt[] = ['txt', 'json', 'md'];

/** A file name `<sha256>.<ext>` with one of `exts`: its sha256 and extension, or undefined for any other name. */
export function parseOriginalName(name: string, exts: readonly OriginalFileExt[]): { readonly sha256: string; readonly ext: OriginalFileExt } | undefined {
  const dot = name.indexOf('.');
  const sha256 = name.slice(0, dot);
  const ext = name.slice(dot + 1) as OriginalFileExt;
  return dot === 64 && isHex64(sha256) && exts.includes(ext) ? { sha256, ext } : undefined;
}
