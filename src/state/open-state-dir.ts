/** Open (creating if needed) a private, writable state directory. */
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fsyncDir } from './atomic-write.js';
import { DIR_MODE, layoutPaths, type StateDir } from './layout.js';
import { hasErrnoCode, StateError } from './state-error.js';
import { errorText } from '../errors.js';

export type { StateDir } from './layout.js';

/**
 * Creates `<dir>`, `elided/` and `conversations/` with mode 0700 and checks they are writable.
 * Throws a StateError: STATE_NOT_DIR, STATE_SYMLINK, STATE_NOT_PRIVATE or STATE_UNWRITABLE.
 */
export async function openStateDir(dir: string): Promise<StateDir> {
  const state = layoutPaths(path.resolve(dir));
  try {
    await openRoot(state.root);
    await openSubdir(state.elidedDir);
    await openSubdir(state.conversationsDir);
    // access() answers EROFS even for root, who otherwise passes every permission check.
    await fs.access(state.root, constants.W_OK | constants.X_OK);
    // Stubs name files by absolute path: one spelling of the directory (its real path), so two
    // routes to it (a symlink, a relative --state) never give two different stubs for one block.
    return layoutPaths(await fs.realpath(state.root));
  } catch (error) {
    throw toStateError(error, state.root);
  }
}

async function openRoot(root: string): Promise<void> {
  // The root may be a symlink the user chose (a state dir moved to another disk): stat, not lstat.
  const stat = await fs.stat(root).catch((error: unknown) => {
    if (hasErrnoCode(error, 'ENOENT')) return undefined;
    throw error;
  });
  if (stat === undefined) {
    await fs.mkdir(root, { recursive: true, mode: DIR_MODE });
    // mkdir's mode is filtered by the umask, which may be 000: set it explicitly.
    await fs.chmod(root, DIR_MODE);
    await fsyncDir(path.dirname(root));
    return;
  }
  if (!stat.isDirectory()) throw notDir(root);
  if ((stat.mode & 0o777) === DIR_MODE) return;
  // Tighten a directory that is ours or empty; never chmod a shared one like /tmp or $HOME.
  const names = await fs.readdir(root);
  const ours = names.length === 0 || names.includes('elided') || names.includes('conversations');
  if (!ours) {
    throw new StateError(
      'STATE_NOT_PRIVATE',
      `state directory ${root} is readable by others and is not a ctxshed state directory; choose a new or empty directory`,
    );
  }
  await fs.chmod(root, DIR_MODE);
}

async function openSubdir(dir: string): Promise<void> {
  await fs.mkdir(dir, { mode: DIR_MODE }).catch((error: unknown) => {
    if (!hasErrnoCode(error, 'EEXIST')) throw error;
  });
  // lstat: a symlinked elided/ would send every write somewhere the user did not choose.
  const stat = await fs.lstat(dir);
  if (stat.isSymbolicLink()) {
    throw new StateError('STATE_SYMLINK', `${dir} is a symbolic link; it must be a directory`);
  }
  if (!stat.isDirectory()) throw notDir(dir);
  if ((stat.mode & 0o777) !== DIR_MODE) await fs.chmod(dir, DIR_MODE);
  await fs.access(dir, constants.W_OK | constants.X_OK);
}

function notDir(where: string): StateError {
  return new StateError('STATE_NOT_DIR', `state path ${where} exists and is not a directory`);
}

function toStateError(error: unknown, root: string): StateError {
  if (error instanceof StateError) return error;
  if (hasErrnoCode(error, 'ENOTDIR') || hasErrnoCode(error, 'EEXIST')) {
    return new StateError('STATE_NOT_DIR', `state path ${root} is not a directory`, { cause: error });
  }
  const reason = errorText(error);
  return new StateError('STATE_UNWRITABLE', `cannot use ${root} as the state directory (${reason}); pass --state or set CTXSHED_STATE`, { cause: error });
}
