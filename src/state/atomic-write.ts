/** Durable, atomic replacement of one file in the state directory, around write-file-atomic. */
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { FILE_MODE } from './layout.js';
import { hasErrnoCode, StateError } from './state-error.js';
import { errorText } from '../errors.js';

/**
 * Replaces `target` with `bytes` (mode 0600) so that after it resolves the new content and its
 * directory entry are on disk. Refuses a target that is a symlink (STATE_SYMLINK).
 */
export async function writeFileDurable(target: string, bytes: Uint8Array): Promise<void> {
  await refuseSymlink(target);
  // write-file-atomic realpath()s the target and renames onto the *resolved* path, so a symlink
  // planted at `target` would be written through, not replaced; refuseSymlink stops that. The
  // window between the lstat and the rename is only open to someone who can already write to
  // this 0700 directory.
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // write-file-atomic issues one fs.write() and ignores the count written; libuv returns a short
  // count without an error when the disk fills mid-write, and the library then renames the cut
  // file into place. So it writes a staging name first; only a staged file of the right size is
  // renamed over the target, and a good record is never replaced by a cut one. The staging name
  // ends in digits, like write-file-atomic's own temp files, so every reader already skips it.
  const staged = `${target}.${STAGE_PREFIX}${process.pid}${(stageCounter++).toString().padStart(4, '0')}`;
  try {
    // A fresh options object each call: write-file-atomic assigns into the one it is given.
    // The explicit mode is chmod()ed after open, so the umask cannot widen or narrow it.
    await writeFileAtomic(staged, data, { mode: FILE_MODE, fsync: true });
    const written = await fs.lstat(staged);
    if (written.size !== bytes.byteLength) {
      throw new Error(`short write: ${written.size} of ${bytes.byteLength} bytes (disk full?)`);
    }
    await fs.rename(staged, target);
  } catch (error) {
    await fs.unlink(staged).catch(() => undefined);
    throw new StateError('STATE_WRITE_FAILED', `could not write ${target}: ${errorText(error)}`, {
      cause: error,
    });
  }
  // write-file-atomic fsyncs the file but not the directory, so the rename itself could still be
  // lost in a power cut; a record must never outlive the elided file it names.
  await fsyncDir(path.dirname(target));
}

/**
 * Creates `target` holding `bytes` (mode 0600): a fresh staged name written and fsynced, its size
 * checked, then renamed into place (which replaces a symlink planted there rather than writing
 * through it). Its folder is not fsynced: a batch does that once for all its files
 * (write-originals.ts), before anything names them.
 */
export async function writeFileStaged(target: string, bytes: Uint8Array): Promise<void> {
  const staged = `${target}.${STAGE_PREFIX}${process.pid}${(stageCounter++).toString().padStart(4, '0')}`;
  try {
    const handle = await fs.open(staged, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, FILE_MODE);
    try {
      // The mode given to open is filtered by the umask: set it explicitly.
      await handle.chmod(FILE_MODE);
      await handle.writeFile(bytes);
      await handle.sync();
      const size = (await handle.stat()).size;
      if (size !== bytes.byteLength) throw new Error(`short write: ${size} of ${bytes.byteLength} bytes (disk full?)`);
    } finally {
      await handle.close();
    }
    await fs.rename(staged, target);
  } catch (error) {
    await fs.unlink(staged).catch(() => undefined);
    throw new StateError('STATE_WRITE_FAILED', `could not write ${target}: ${errorText(error)}`, { cause: error });
  }
}

// Digits only, so the staging name matches the `<name>.<digits>` leftovers readers skip.
const STAGE_PREFIX = '0';
let stageCounter = 0;

/** Flushes a directory's entries (creations, renames) to disk. */
export async function fsyncDir(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } catch (error) {
    // Some filesystems cannot fsync a directory; there is nothing more to flush then.
    if (!hasErrnoCode(error, 'EINVAL') && !hasErrnoCode(error, 'EISDIR')) throw error;
  } finally {
    await handle.close();
  }
}

/** Throws STATE_SYMLINK when `target` is a symlink; a missing target is fine. */
export async function refuseSymlink(target: string): Promise<void> {
  const stat = await fs.lstat(target).catch((error: unknown) => {
    if (hasErrnoCode(error, 'ENOENT')) return undefined;
    throw error;
  });
  if (stat?.isSymbolicLink() === true) {
    throw new StateError('STATE_SYMLINK', `refusing to write through the symbolic link ${target}`);
  }
}
