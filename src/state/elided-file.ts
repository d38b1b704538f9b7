/** Content-addressed files: `elided/<sha256>.txt` (or `.json`), and the one durable write elided/, spans/ and thinking/ share. */
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fsyncDir, writeFileDurable } from './atomic-write.js';
import { elidedPath, FILE_MODE, sealedPath, type ElidedExt, type StateDir } from './layout.js';
import { openPrivateSubdir } from './private-subdir.js';
import { sha256Hex } from './sha256-hex.js';
import { hasErrnoCode, StateError } from './state-error.js';

/**
 * Makes `elided/<sha256>.<ext>` hold `bytes`, durably, once this resolves. Throws
 * STATE_HASH_MISMATCH when `bytes` do not hash to `sha256`: a file's name never lies.
 *
 * Bytes already kept in sealed/ under this name are left there: the file stays sealed.
 *
 * An existing file is kept only when its size matches and its content re-hashes to its name.
 * Hashing it costs one read of a tool result, and only at latch time; trusting the size alone
 * would keep a same-size corrupt file forever, since its name says it never needs rewriting.
 */
export async function writeElidedFile(state: StateDir, sha256: string, bytes: Uint8Array, ext: ElidedExt = 'txt'): Promise<void> {
  await writeContentFile({ dir: state.elidedDir, target: elidedPath(state, sha256, ext), what: 'bytes' }, sha256, bytes, {
    // Sealed (`ctxshed seal`): the bytes are kept in sealed/, and a latch that elides the same text
    // again must not put it back where the read grant reaches it.
    keptElsewhere: () => alreadyHolds(sealedPath(state, sha256, ext), bytes.byteLength, sha256),
  });
}

/** Where a content-addressed file goes, and how its hash error names it. */
export interface ContentTarget {
  readonly dir: string;
  readonly target: string;
  /** What the bytes are, in the hash error (`bytes`, `span bytes`, ...). */
  readonly what: string;
}

/**
 * Makes `target` (named by `sha256`) hold `bytes`, durably, once this resolves; the one write of
 * elided/, spans/ and thinking/. Throws STATE_HASH_MISMATCH when `bytes` do not hash to `sha256`.
 * With `createDir`, makes the folder (0700) first; `keptElsewhere` says the bytes need no copy here.
 */
export async function writeContentFile(
  to: ContentTarget,
  sha256: string,
  bytes: Uint8Array,
  options: { readonly createDir?: boolean; readonly keptElsewhere?: () => Promise<boolean> } = {},
): Promise<void> {
  const actual = sha256Hex(bytes);
  if (actual !== sha256) throw new StateError('STATE_HASH_MISMATCH', `${to.what} for ${path.basename(to.target)} hash to ${actual}`);
  if (options.createDir === true) await openPrivateSubdir(to.dir);
  if (await alreadyHolds(to.target, bytes.byteLength, sha256)) {
    // Whoever wrote it may have died before flushing the directory entry: flush it now.
    await fsyncDir(to.dir);
    return;
  }
  if (options.keptElsewhere !== undefined && (await options.keptElsewhere())) return;
  try {
    await writeFileDurable(to.target, bytes);
  } catch (error) {
    // A short write leaves a file whose name lies; remove it unless a good copy replaced it.
    if (!(await alreadyHolds(to.target, bytes.byteLength, sha256).catch(() => true))) await fs.unlink(to.target).catch(() => undefined);
    throw error;
  }
}

/** Whether `target` is a regular file with exactly this size and sha256 (fsynced if so). */
export async function alreadyHolds(target: string, size: number, sha256: string): Promise<boolean> {
  let handle: fs.FileHandle;
  try {
    // O_NOFOLLOW: a planted symlink must neither be trusted nor read through.
    handle = await fs.open(target, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    if (hasErrnoCode(error, 'ENOENT')) return false;
    if (hasErrnoCode(error, 'ELOOP') || hasErrnoCode(error, 'EMLINK')) {
      throw new StateError('STATE_SYMLINK', `refusing to use the symbolic link ${target}`, {
        cause: error,
      });
    }
    throw error;
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile() || stat.size !== size) return false;
    if (sha256Hex(await handle.readFile()) !== sha256) return false;
    // Cheap when already flushed; needed when something other than this module put it there.
    await handle.sync();
    if ((stat.mode & 0o777) !== FILE_MODE) await handle.chmod(FILE_MODE);
    return true;
  } finally {
    await handle.close();
  }
}
