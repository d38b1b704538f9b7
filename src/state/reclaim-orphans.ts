/**
 * The files a failed latch leaves behind. A latch writes its content files (elided/, spans/,
 * thinking/) before its record; when a later write fails (a full disk), the files it created are
 * named by no record and never will be: they are orphans, and on a full disk they hold the very
 * room the next latch needs. So the latch removes the ones it created that no record names, once no
 * other latch of this process is in flight (latch-gate.ts), so none can be about to name them; one it cannot remove is kept in mind and
 * removed after the next successful latch, unless a record names it by then (another latch may
 * have found the same bytes in place and kept them).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { StateDir } from './layout.js';
import { hasErrnoCode } from './state-error.js';

/** Orphans that could not be removed yet, by state directory (this process's latches only). */
const pending = new Map<string, Set<string>>();

/** Notes in `created` each of `targets` that does not exist yet: the latch is about to create it. */
export async function noteCreated(created: string[], ...targets: string[]): Promise<void> {
  for (const target of targets) {
    const exists = await fs.lstat(target).then(
      () => true,
      (error: unknown) => !hasErrnoCode(error, 'ENOENT'),
    );
    if (!exists) created.push(target);
  }
}

/** Removes `files`, a failed latch's own; those that cannot be removed wait for the next successful latch. */
export async function reclaimOrphans(state: StateDir, files: readonly string[]): Promise<void> {
  // Another conversation's latch may have found these bytes in place and named them since.
  const named = await recordsText(state);
  for (const file of files) {
    if (named.includes(path.basename(file).slice(0, 64))) continue;
    const removed = await removeFile(file);
    if (removed) continue;
    let waiting = pending.get(state.root);
    if (waiting === undefined) pending.set(state.root, (waiting = new Set()));
    waiting.add(file);
  }
}

/** After a successful latch: removes the orphans earlier failures left, unless a record names them now. */
export async function reclaimPending(state: StateDir): Promise<void> {
  const waiting = pending.get(state.root);
  if (waiting === undefined || waiting.size === 0) return;
  const named = await recordsText(state);
  for (const file of [...waiting]) {
    const sha256 = path.basename(file).slice(0, 64);
    if (named.includes(sha256) || (await removeFile(file))) waiting.delete(file);
  }
  if (waiting.size === 0) pending.delete(state.root);
}

/** How many orphans wait for the next successful latch (tests). */
export function pendingOrphans(state: StateDir): number {
  return pending.get(state.root)?.size ?? 0;
}

async function removeFile(file: string): Promise<boolean> {
  return fs.unlink(file).then(
    () => true,
    (error: unknown) => hasErrnoCode(error, 'ENOENT'),
  );
}

/** Every record's text, joined: a file is named when its sha256 appears in one. */
async function recordsText(state: StateDir): Promise<string> {
  const names = await fs.readdir(state.conversationsDir).catch(() => [] as string[]);
  const texts = await Promise.all(names.map((name) => fs.readFile(path.join(state.conversationsDir, name), 'utf8').catch(() => '')));
  return texts.join('\n');
}
