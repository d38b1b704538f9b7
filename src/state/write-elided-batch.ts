/**
 * A latch's elided files, written as one batch (docs/team.md "Latching at load"): every file
 * staged and fsynced (many at once, so the disk's journal commits them together), renamed into
 * place, then each folder fsynced once; only then may the record name them. One file at a time,
 * with a folder fsync each, cost about 5 ms a block. What a file holds and when it is kept are as
 * writeElidedFile decides for one (elided-file.ts): a name never lies, a good copy is kept, a
 * sealed text stays sealed.
 */
import { fsyncDir, writeFileStaged } from './atomic-write.js';
import { alreadyHolds } from './elided-file.js';
import { elidedPath, sealedPath, type StateDir } from './layout.js';
import { noteCreated } from './reclaim-orphans.js';
import { sha256Hex } from './sha256-hex.js';
import { StateError } from './state-error.js';
import type { PlannedFile } from '../core/plan-record.js';

/**
 * How many files this process stages and fsyncs at once, across every latch: enough that the disk
 * commits several together, few enough that node's four I/O threads always have room for a
 * request that latches nothing.
 */
export const BATCH_PARALLEL = 3;

// Latches take turns through this queue, first come first served, so the first to start is the first done.
let turn: Promise<unknown> = Promise.resolve();

/**
 * Makes each of `files` durable in elided/ once this resolves, noting in `created` each target it
 * is about to create. `afterFirst` runs once the first file is in place (a crash point).
 */
export async function writeElidedBatch(state: StateDir, files: readonly PlannedFile[], created: string[], afterFirst?: () => void): Promise<void> {
  for (const file of files) {
    const actual = sha256Hex(file.bytes);
    if (actual !== file.sha256) throw new StateError('STATE_HASH_MISMATCH', `bytes for ${file.sha256}.${file.ext} hash to ${actual}`);
  }
  const mine = turn.then(() => writeAll(state, files, created, afterFirst));
  turn = mine.catch(() => undefined);
  await mine;
}

async function writeAll(state: StateDir, files: readonly PlannedFile[], created: string[], afterFirst?: () => void): Promise<void> {
  let first = true;
  await eachAtMost(BATCH_PARALLEL, files, async (file) => {
    const target = elidedPath(state, file.sha256, file.ext);
    // A good copy is kept (fsynced by alreadyHolds); a sealed text is not put back where a read grant reaches it.
    if (await alreadyHolds(target, file.bytes.byteLength, file.sha256)) return;
    if (await alreadyHolds(sealedPath(state, file.sha256, file.ext), file.bytes.byteLength, file.sha256)) return;
    await noteCreated(created, target);
    await writeFileStaged(target, file.bytes);
    if (first) {
      first = false;
      afterFirst?.();
    }
  });
  // One fsync of the folder for every rename into it (and for a kept file whose writer may have died before its own).
  if (files.length > 0) await fsyncDir(state.elidedDir);
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
