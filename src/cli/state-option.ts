/** The `--state DIR` option every command shares, and opening the directory with a clear error. */
import os from 'node:os';
import { openStateDir, type StateDir } from '../state/open-state-dir.js';
import { resolveStateDir } from '../state/resolve-state-dir.js';
import { StateError } from '../state/state-error.js';
import { openPgStore, StoreError, type ConversationStore, fsStore } from '../store/index.js';
import { CliError } from './cli-error.js';

export const STATE_OPTION = {
  type: 'string',
  describe: 'State directory (default: $CTXSHED_STATE, else $XDG_STATE_HOME/ctxshed, else ~/.local/state/ctxshed)',
} as const;

export const STORE_OPTION = {
  type: 'string',
  describe:
    'Keep conversations and originals in Postgres (postgres://user@host/db, migrated by ctxshed migrate) instead of the state directory; the wire log stays in --state',
} as const;

/** The store `--store` names (its schema checked), else the state directory; a CliError naming why not. */
export async function openStoreOrFail(flag: string | undefined, state: StateDir): Promise<ConversationStore> {
  if (flag === undefined) return fsStore(state);
  try {
    return await openPgStore(flag);
  } catch (error) {
    if (error instanceof StoreError) throw new CliError(error.message, error.code === 'STORE_BAD_URL' ? 2 : 1);
    throw error;
  }
}

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
