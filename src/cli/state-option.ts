/** The `--state DIR` option every command shares, and opening the directory with a clear error. */
import os from 'node:os';
import { openStateDir, type StateDir } from '../state/open-state-dir.js';
import { resolveStateDir } from '../state/resolve-state-dir.js';
import { StateError } from '../state/state-error.js';
import { CliError } from './cli-error.js';

export const STATE_OPTION = {
  type: 'string',
  describe: 'State directory (default: $CTXSHED_STATE, else $XDG_STATE_HOME/ctxshed, else ~/.local/state/ctxshed)',
} as const;

/** The absolute state directory the flags and environment name. */
export function stateDirFrom(flag: string | undefined): string {
  return resolveStateDir(process.env, os.homedir(), flag);
}

/** Opens (creating) the state directory, or a CliError naming why not. */
export async function openStateOrFail(flag: string | undefined): Promise<StateDir> {
  const dir = stateDirFrom(flag);
  try {
    return await openStateDir(dir);
  } catch (error) {
    if (error instanceof StateError) throw new CliError(error.message);
    throw error;
  }
}
