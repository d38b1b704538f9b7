/**
 * Reading a file of the state directory that ctxshed wrote and will hand out (restore, show):
 * only a regular file whose real path lies inside the state directory, and never blocking.
 * `O_NOFOLLOW` guards only the last component of a path, so a symlinked `elided/` or `spans/`
 * would lead outside; and opening a FIFO planted under an elided name would wait forever for a
 * writer. So the entry is looked at first (lstat), opened with O_NOFOLLOW | O_NONBLOCK, checked
 * again on the open descriptor (fstat), and its real path must be the state directory's real
 * path joined with the rest of its path (no link below the root, where ctxshed makes none) and
 * name the very file that was opened.
 */
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileKindOf, type FileKind } from './file-kind.js';
import { hasErrnoCode } from './state-error.js';

/** What reading a state file gave. */
export type ContainedRead =
  | { readonly kind: 'ok'; readonly bytes: Buffer }
  | { readonly kind: 'missing' }
  /** Not given out: `why` says what the entry is instead. */
  | { readonly kind: 'refused'; readonly why: string };

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** Reads `file` if it is a regular file inside `root` (the state directory, itself maybe a link the user chose). */
export async function readContainedFile(root: string, file: string): Promise<ContainedRead> {
  const entry = await fs.lstat(file).catch((error: unknown) => {
    if (hasErrnoCode(error, 'ENOENT') || hasErrnoCode(error, 'ENOTDIR')) return undefined;
    throw error;
  });
  if (entry === undefined) return { kind: 'missing' };
  if (!entry.isFile()) return refusedKind(file, fileKindOf(entry));
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, OPEN_FLAGS);
  } catch (error) {
    if (hasErrnoCode(error, 'ENOENT')) return { kind: 'missing' };
    // Replaced by a link or a socket since the lstat.
    if (hasErrnoCode(error, 'ELOOP') || hasErrnoCode(error, 'EMLINK') || hasErrnoCode(error, 'ENXIO'))
      return { kind: 'refused', why: `${file} is not a regular file` };
    throw error;
  }
  try {
    const opened = await handle.stat();
    if (!opened.isFile()) return refusedKind(file, fileKindOf(opened));
    const [realRoot, real] = await Promise.all([fs.realpath(root), fs.realpath(file)]);
    // Below the root, ctxshed makes no link: the file must be exactly where its path says.
    if (real !== path.join(realRoot, path.relative(root, file))) {
      const where = isInside(realRoot, real) ? 'is reached through a symbolic link in the state directory' : 'lies outside the state directory';
      return { kind: 'refused', why: `${file} ${where} (it is ${real}: a folder on its way is a symbolic link)` };
    }
    const there = await fs.stat(real);
    if (there.dev !== opened.dev || there.ino !== opened.ino) return { kind: 'refused', why: `${file} changed while it was being opened` };
    return { kind: 'ok', bytes: await handle.readFile() };
  } finally {
    await handle.close();
  }
}

function refusedKind(file: string, kind: FileKind): ContainedRead {
  return { kind: 'refused', why: `${file} is a ${kind}, not a regular file` };
}

function isInside(dir: string, file: string): boolean {
  const relative = path.relative(dir, file);
  return relative !== '' && relative.split(path.sep)[0] !== '..' && !path.isAbsolute(relative);
}
