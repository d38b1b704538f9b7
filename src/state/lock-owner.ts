/**
 * Who holds a conversation's lock (`.locks/<key>.owner`, beside the lock directory): the holder's
 * pid and host, written once the lock is had and removed before it is let go. A proxy killed in
 * the middle of a latch leaves its lock behind, fresh; a restarted proxy used to wait for it to go
 * stale (10 s, more under load) before it answered that conversation's next request (issue 41). A
 * lock whose owner is a process of this host that no longer runs is dated back, so the lock
 * library takes it over at once, by its own stale rule; anything unsure (another host, a pid in
 * use, no owner file, a file that does not read) waits for staleness as before.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import { FILE_MODE } from './layout.js';
import { hasErrnoCode } from './state-error.js';
import { isRecord } from '../errors.js';

/** The owner file of the lock directory `lockPath`. */
export function ownerFileOf(lockPath: string): string {
  return `${lockPath}.owner`;
}

/** Says this process holds `lockPath` (best effort: without it a stale lock is only taken over later). */
export async function writeLockOwner(lockPath: string): Promise<void> {
  const text = `${JSON.stringify({ pid: process.pid, host: os.hostname() })}\n`;
  await fs.writeFile(ownerFileOf(lockPath), text, { mode: FILE_MODE }).catch(() => undefined);
}

/** Takes the owner file away before the lock is let go (best effort). */
export async function removeLockOwner(lockPath: string): Promise<void> {
  await fs.rm(ownerFileOf(lockPath), { force: true }).catch(() => undefined);
}

/** Dates `lockPath` back when its owner is a process of this host that is gone, so it is stale at once; true when it did. */
export async function expireDeadOwner(lockPath: string, alive: (pid: number) => boolean = isAlive): Promise<boolean> {
  const owner = await readOwner(lockPath);
  if (owner === undefined || owner.host !== os.hostname() || owner.pid === process.pid || alive(owner.pid)) return false;
  return fs.utimes(lockPath, 0, 0).then(
    () => true,
    () => false,
  );
}

async function readOwner(lockPath: string): Promise<{ pid: number; host: string } | undefined> {
  const text = await fs.readFile(ownerFileOf(lockPath), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (!isRecord(value) || !Number.isSafeInteger(value['pid']) || (value['pid'] as number) <= 0 || typeof value['host'] !== 'string') return undefined;
    return { pid: value['pid'] as number, host: value['host'] };
  } catch {
    return undefined;
  }
}

/** Whether a process `pid` runs on this host (EPERM: it runs, as another user). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return !hasErrnoCode(error, 'ESRCH');
  }
}
