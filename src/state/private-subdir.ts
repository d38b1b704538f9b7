/** A subdirectory of the state directory that appears with its first file (spans/, thinking/). */
import fs from 'node:fs/promises';
import path from 'node:path';
import { fsyncDir } from './atomic-write.js';
import { DIR_MODE } from './layout.js';
import { hasErrnoCode, StateError } from './state-error.js';

/** Creates `dir` with mode 0700 when it is missing; refuses one that is a symlink or no directory. */
export async function openPrivateSubdir(dir: string): Promise<void> {
  const created = await fs.mkdir(dir, { mode: DIR_MODE }).then(
    () => true,
    (error: unknown) => {
      if (hasErrnoCode(error, 'EEXIST')) return false;
      throw error;
    },
  );
  // lstat: a symlinked directory would send every write somewhere the user did not choose.
  const stat = await fs.lstat(dir);
  if (stat.isSymbolicLink()) throw new StateError('STATE_SYMLINK', `${dir} is a symbolic link; it must be a directory`);
  if (!stat.isDirectory()) throw new StateError('STATE_NOT_DIR', `state path ${dir} exists and is not a directory`);
  // mkdir's mode is filtered by the umask: set it explicitly.
  if ((stat.mode & 0o777) !== DIR_MODE) await fs.chmod(dir, DIR_MODE);
  if (created) await fsyncDir(path.dirname(dir));
}
