/** The `--state DIR` option every command shares, and opening the directory with a clear error. */
import { rmSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { layoutPaths, OWNERS_DIR_NAME } from '../state/layout.js';
import { openStateDir, type StateDir } from '../state/open-state-dir.js';
import { resolveStateDir } from '../state/resolve-state-dir.js';
import { StateError } from '../state/state-error.js';
import { checkOwnerId, exportStore, fsStore, isPostgresUrl, openPgStore, redactUrl, StoreError, type ConversationStore } from '../store/index.js';
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

export const OWNER_OPTION = {
  type: 'string',
  describe: "One owner's conversations (the owner id an owner rule gave them, docs/team.md) instead of the single-user owner's",
} as const;

/** The owner `--owner` names (`''` without it); a usage error for anything that is no owner id. */
export function ownerFrom(flag: string | undefined): string {
  if (flag === undefined) return '';
  try {
    return checkOwnerId(flag);
  } catch (error) {
    if (error instanceof StateError) throw new CliError(`--owner: ${error.message}`, 2);
    throw error;
  }
}

/** The store `--store` names (its schema checked), else the state directory; a CliError naming why not. */
export async function openStoreOrFail(flag: string | undefined, state: StateDir): Promise<ConversationStore> {
  if (flag === undefined) return fsStore(state);
  checkStoreFlag(flag);
  try {
    return await openPgStore(flag);
  } catch (error) {
    if (error instanceof StoreError) throw new CliError(error.message, error.code === 'STORE_BAD_URL' ? 2 : 1);
    throw error;
  }
}

/** Exit 2 for a `--store` that is not a Postgres URL (shown without its password), before anything is opened. */
export function checkStoreFlag(flag: string | undefined): void {
  if (flag !== undefined && !isPostgresUrl(flag)) throw new CliError(`--store takes a postgres:// or postgresql:// URL, got ${redactUrl(flag)}`, 2);
}

/** The absolute state directory the flags and environment name. */
export function stateDirFrom(flag: string | undefined): string {
  return resolveStateDir(process.env, os.homedir(), flag);
}

/** The state directory of `owner` (`--owner`): the one the flags name for `''`, else its `owners/<owner>/`. */
export function ownerDirFrom(flag: string | undefined, owner: string): string {
  return owner === '' ? stateDirFrom(flag) : path.join(stateDirFrom(flag), OWNERS_DIR_NAME, owner);
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

/**
 * For a read-only command given `--store`: the store's records and originals in a private
 * temporary state directory (removed when the process exits), with this machine's wire log from
 * `--state` when there is one. Without `--store`: undefined (the command reads `--state`).
 */
export async function exportedStoreFor(storeFlag: string | undefined, stateFlag: string | undefined, owner = ''): Promise<StateDir | undefined> {
  if (storeFlag === undefined) return undefined;
  const store = await openStoreOrFail(storeFlag, layoutPaths(stateDirFrom(stateFlag)));
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ctxshed-store-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  try {
    // One owner's namespace (`--owner`); reading it creates nothing, and an owner with none lists nothing.
    const namespace = await store.existingOwner(owner);
    const state = namespace === undefined ? await openStateDir(dir) : await exportStore(namespace, dir);
    await fs.copyFile(layoutPaths(stateDirFrom(stateFlag)).wirePath, state.wirePath).catch(() => undefined);
    return state;
  } finally {
    await store.close();
  }
}
