/**
 * A latch's originals, of every kind, written as one batch (docs/team.md "Latching at load"):
 * every file staged and fsynced (many at once, so the disk's journal commits them together),
 * renamed into place, then each folder fsynced once; only then may the record name them. One file
 * at a time, with a folder fsync each, cost about 5 ms a block. Each lands in its kind's folder
 * (originals-folder.ts; a folder made 0700 with its first file): a name never lies (every file but
 * a rendering, `.md`, hashes to its name), a good copy is kept, a sealed text stays sealed.
 */
import fs from 'node:fs/promises';
import type { PlannedOriginal } from '../core/plan-record.js';
import { fsyncDir, writeFileStaged } from './atomic-write.js';
import { alreadyHolds } from './elided-file.js';
import { locateOriginal, originalPathOf, originalsFolderOf } from './originals-folder.js';
import { openPrivateSubdir } from './private-subdir.js';
import { noteCreated } from './reclaim-orphans.js';
import { sha256Hex } from './sha256-hex.js';
import { hasErrnoCode, StateError } from './state-error.js';
import type { StateDir } from './layout.js';

/**
 * How many files this process stages and fsyncs at once, across every latch: enough that the disk
 * commits several together, few enough that node's four I/O threads always have room for a
 * request that latches nothing.
 */
export const BATCH_PARALLEL = 3;

// Latches take turns through this queue, first come first served, so the first to start is the first done.
let turn: Promise<unknown> = Promise.resolve();

/**
 * Makes each of `originals` durable in its kind's folder once this resolves, noting in `created`
 * each target it is about to create. `afterFirst` runs once the first file is in place (a crash point).
 */
export async function writeOriginals(state: StateDir, originals: readonly PlannedOriginal[], created: string[], afterFirst?: () => void): Promise<void> {
  for (const file of originals) {
    // A name that is not a sha256 is refused before anything is read or written.
    originalPathOf(state, file.folder, file.sha256, file.ext);
    if (file.ext === 'md') continue;
    const actual = sha256Hex(file.bytes);
    if (actual !== file.sha256) throw new StateError('STATE_HASH_MISMATCH', `bytes for ${file.folder}/${file.sha256}.${file.ext} hash to ${actual}`);
  }
  const mine = turn.then(() => writeAll(state, originals, created, afterFirst));
  turn = mine.catch(() => undefined);
  await mine;
}

async function writeAll(state: StateDir, originals: readonly PlannedOriginal[], created: string[], afterFirst?: () => void): Promise<void> {
  const dirs = [...new Set(originals.map((o) => originalsFolderOf(state, o.folder).dir))];
  for (const dir of dirs) await openPrivateSubdir(dir);
  let first = true;
  await eachAtMost(BATCH_PARALLEL, originals, async (file) => {
    if (await kept(state, file)) return;
    const target = originalPathOf(state, file.folder, file.sha256, file.ext);
    await noteCreated(created, target);
    await writeFileStaged(target, file.bytes);
    if (first) {
      first = false;
      afterFirst?.();
    }
  });
  // One fsync of each folder for every rename into it (and for a kept file whose writer may have died before its own).
  for (const dir of dirs) await fsyncDir(dir);
}

/**
 * Whether a good copy is kept already: the file itself (an `elided/` text `ctxshed seal` moved, in
 * sealed/, where a read grant does not reach it), or for a rendering, exactly its bytes.
 */
async function kept(state: StateDir, file: PlannedOriginal): Promise<boolean> {
  const target = originalPathOf(state, file.folder, file.sha256, file.ext);
  if (file.ext === 'md') return holdsBytes(target, file.bytes);
  if (await alreadyHolds(target, file.bytes.byteLength, file.sha256)) return true;
  const found = await locateOriginal(state, file.folder, file.sha256, file.ext);
  return found !== undefined && found.path !== target && (await alreadyHolds(found.path, file.bytes.byteLength, file.sha256));
}

/** Whether `file` is a regular file holding exactly `bytes`; a symlink there is refused, never replaced or followed. */
async function holdsBytes(file: string, bytes: Uint8Array): Promise<boolean> {
  const stat = await fs.lstat(file).catch((error: unknown) => {
    if (hasErrnoCode(error, 'ENOENT')) return undefined;
    throw error;
  });
  if (stat?.isSymbolicLink() === true) throw new StateError('STATE_SYMLINK', `refusing to use the symbolic link ${file}`);
  if (stat === undefined || !stat.isFile() || stat.size !== bytes.byteLength) return false;
  return Buffer.compare(await fs.readFile(file), bytes) === 0;
}

/** Runs `work` on every item, at most `limit` at a time; rejects with the first failure once all started ones settle. */
async function eachAtMost<T>(limit: number, items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: unknown;
  const lane = async (): Promise<void> => {
    while (failure === undefined && next < items.length) {
      const item = items[next++] as T;
      await work(item).catch((error: unknown) => {
        failure ??= error;
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  if (failure !== undefined) throw failure;
}
