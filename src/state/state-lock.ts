/** Mutual exclusion over a whole state directory, between processes and within one. */
import lockfile from 'proper-lockfile';
import type { StateDir } from './layout.js';
import { StateError } from './state-error.js';
import { expireDeadOwner, removeLockOwner, writeLockOwner } from './lock-owner.js';

/** A lock older than this is taken to belong to a dead process (proper-lockfile's minimum is 2 s). */
export const LOCK_STALE_MS = 10_000;
/** How often the holder refreshes the lock's mtime; well under LOCK_STALE_MS, so a busy loop survives. */
export const LOCK_UPDATE_MS = 2_000;

// Waiting must outlast LOCK_STALE_MS, so a lock left by a kill -9 is taken over, not given up on:
// 20, 30, 45 ... ms (times a random 1-2), capped at 500 ms, 40 tries: about 17 s in all.
const LOCK_RETRIES = { retries: 40, factor: 1.5, minTimeout: 20, maxTimeout: 500, randomize: true };

/** Proof, handed to the critical section, that the lock is still ours. */
export interface HeldLock {
  /** Throws STATE_LOCK_COMPROMISED if another process may have taken the lock over. */
  assertHeld(): void;
}

// proper-lockfile spins on mkdir; queueing callers of this process keeps them off that loop.
const queues = new Map<string, Promise<unknown>>();

/** Runs `critical` while holding `<state>/.lock`; throws STATE_LOCK_FAILED if it cannot be had. */
export async function withStateLock<T>(state: StateDir, critical: (lock: HeldLock) => Promise<T>): Promise<T> {
  return withLockAt(state.lockPath, critical);
}

/**
 * Runs `critical` while holding the lock directory `lockPath` (its parent must exist, or `prepare`
 * makes it), after the callers of this process queued on the same lock.
 */
export async function withLockAt<T>(
  lockPath: string,
  critical: (lock: HeldLock) => Promise<T>,
  prepare?: () => Promise<unknown>,
  /** Keep an owner file beside the lock (lock-owner.ts), so a lock a dead process left is taken over at once. */
  owned = false,
): Promise<T> {
  const before = queues.get(lockPath) ?? Promise.resolve();
  const run = before.catch(() => undefined).then(() => lockAndRun(lockPath, critical, prepare, owned));
  const tail = run.catch(() => undefined);
  queues.set(lockPath, tail);
  void tail.then(() => {
    if (queues.get(lockPath) === tail) queues.delete(lockPath);
  });
  return run;
}

async function lockAndRun<T>(
  lockPath: string,
  critical: (lock: HeldLock) => Promise<T>,
  prepare: (() => Promise<unknown>) | undefined,
  owned: boolean,
): Promise<T> {
  let compromised: Error | undefined;
  let release: () => Promise<void>;
  try {
    await prepare?.();
    if (owned) await expireDeadOwner(lockPath);
    // proper-lockfile keeps its locks by the file named first, not by lockfilePath (which alone
    // names the lock: a directory mkdir creates atomically): one name per lock. realpath: false,
    // or it would realpath() a state directory that may be gone.
    release = await lockfile.lock(lockPath, {
      lockfilePath: lockPath,
      realpath: false,
      stale: LOCK_STALE_MS,
      update: LOCK_UPDATE_MS,
      retries: LOCK_RETRIES,
      // The default throws from a timer, which kills the process; record it and refuse to commit.
      onCompromised: (error) => {
        compromised = error;
      },
    });
  } catch (error) {
    throw new StateError('STATE_LOCK_FAILED', `could not lock ${lockPath}: ${String(error)}`, { cause: error });
  }
  const held: HeldLock = {
    assertHeld() {
      if (compromised === undefined) return;
      throw new StateError('STATE_LOCK_COMPROMISED', `lost the lock ${lockPath}: ${compromised.message}`, { cause: compromised });
    },
  };
  if (owned) await writeLockOwner(lockPath);
  try {
    return await critical(held);
  } finally {
    if (owned && compromised === undefined) await removeLockOwner(lockPath);
    // After a compromise release() rejects with ERELEASED and, rightly, leaves the lock directory
    // alone: it may be another process's by now.
    await release().catch(() => undefined);
  }
}
