/**
 * The owner key (docs/team.md "Who may restore"): a secret made with the state directory, in
 * `<state>/owner.key` (0600), that the restore routes ask for when no owner rule is on. Whoever can
 * read it can read the elided files beside it anyway, so the routes let in exactly the people the
 * files' modes let in: the person who started ctxshed, not another local user.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fsyncDir } from './atomic-write.js';
import { FILE_MODE } from './layout.js';
import { hasErrnoCode } from './state-error.js';

/** The key's file in the state directory's root. */
export const OWNER_KEY_FILE_NAME = 'owner.key';
/** The header that carries the key to the restore routes (`ctxshed mcp --gateway` sends it). */
export const OWNER_KEY_HEADER = 'x-ctxshed-owner-key';

const KEY = /^[0-9a-f]{64}$/;

/** `<root>/owner.key`. */
export function ownerKeyPath(root: string): string {
  return path.join(root, OWNER_KEY_FILE_NAME);
}

/**
 * The state directory's key, made first if it has none: 32 random bytes in hex, written to a
 * staged file and linked into place, so a reader never sees half a key and two processes starting
 * at once agree on one (the second link fails, and it reads the first's).
 */
export async function ensureOwnerKey(root: string): Promise<string> {
  const existing = await readOwnerKey(root);
  if (existing !== undefined) return existing;
  const file = ownerKeyPath(root);
  const staged = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  const key = randomBytes(32).toString('hex');
  const handle = await fs.open(staged, 'wx', FILE_MODE);
  try {
    await handle.writeFile(`${key}\n`);
    await handle.chmod(FILE_MODE); // the mode open() gave was filtered by the umask
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await fs.link(staged, file);
  } catch (error) {
    if (!hasErrnoCode(error, 'EEXIST')) throw error;
  } finally {
    await fs.unlink(staged).catch(() => undefined);
  }
  await fsyncDir(root);
  const kept = await readOwnerKey(root);
  if (kept === undefined) throw new Error(`${file} does not hold a key`);
  return kept;
}

/** The key in `<root>/owner.key`, or undefined when there is none (or it is not one). */
export async function readOwnerKey(root: string): Promise<string | undefined> {
  const text = await fs.readFile(ownerKeyPath(root), 'utf8').catch((error: unknown) => {
    if (hasErrnoCode(error, 'ENOENT')) return undefined;
    throw error;
  });
  const key = text?.trim();
  return key !== undefined && KEY.test(key) ? key : undefined;
}

/** Whether `given` is `key`, compared in constant time. */
export function isOwnerKey(key: string, given: string): boolean {
  const a = Buffer.from(key, 'utf8');
  const b = Buffer.from(given.trim(), 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
