/**
 * The state of one owner (docs/team.md "Owners"): `''`, the single-user default, is the state
 * root exactly as it always was; any other owner is `<root>/owners/<ownerId>/`, a complete state
 * directory of its own (0700). The proxy makes an owner's folder here on its first request (its
 * previews; on the state directory store, its records and originals too: `store.forOwner`), and
 * the restore routes look for it here without making it (`FsStore.existingOwner`).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { layoutPaths, OWNERS_DIR_NAME, type StateDir } from './layout.js';
import { openStateDir } from './open-state-dir.js';
import { openPrivateSubdir } from './private-subdir.js';
import { hasErrnoCode, StateError } from './state-error.js';

export { OWNERS_DIR_NAME } from './layout.js';

/** An owner id is a safe path segment: what owner-rule.ts makes (32 hex digits), or anything as tame. */
const OWNER_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The state directory of `ownerId`, created (0700) when missing. */
export async function ownerState(root: StateDir, ownerId: string): Promise<StateDir> {
  if (ownerId === '') return root;
  const dir = ownerDir(root, ownerId);
  await openPrivateSubdir(path.dirname(dir));
  return await openStateDir(dir);
}

/** The state directory of `ownerId` when it exists, else undefined: a read never creates one. */
export async function existingOwnerState(root: StateDir, ownerId: string): Promise<StateDir | undefined> {
  if (ownerId === '') return root;
  const dir = ownerDir(root, ownerId);
  const stat = await fs.lstat(dir).catch((error: unknown) => {
    if (hasErrnoCode(error, 'ENOENT')) return undefined;
    throw error;
  });
  return stat?.isDirectory() === true ? layoutPaths(dir) : undefined;
}

function ownerDir(root: StateDir, ownerId: string): string {
  if (!OWNER_ID.test(ownerId)) throw new StateError('STATE_BAD_NAME', 'an owner id must be 1 to 64 letters, digits, - or _');
  return path.join(root.root, OWNERS_DIR_NAME, ownerId);
}
