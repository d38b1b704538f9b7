/**
 * Mutual exclusion over one conversation's record, between processes and within one
 * (docs/team.md "Latching at load"): a latch, and the count of bring-backs, read-decide-write
 * their conversation's record under its own lock, `.locks/<key>`, so latches of different
 * conversations no longer wait on each other. The content files they write are named by their
 * sha256 and created atomically (a staged file renamed into place), so two latches writing the
 * same bytes agree whichever lands last. `ctxshed seal` and `unseal` keep the whole-state lock
 * (state-lock.ts).
 */
import lockfile from 'proper-lockfile';
import path from 'node:path';
import { conversationPath, LOCKS_DIR_NAME, type StateDir } from './layout.js';
import { openPrivateSubdir } from './private-subdir.js';
import { LOCK_STALE_MS, LOCK_UPDATE_MS, type HeldLock } from './state-lock.js';
import { StateError } from './state-error.js';

// As state-lock.ts: waiting outlasts LOCK_STALE_MS, so a lock a kill -9 left is taken over.
const LOCK_RETRIES = { retries: 40, factor: 1.5, minTimeout: 20, maxTimeout: 500, randomize: true };

// Callers of this process for one conversation queue here, off proper-lockfile's mkdir loop.
const queues = new Map<string, Promise<unknown>>();

/** Runs `critical` holding conversation `key`'s lock; throws STATE_LOCK_FAILED if it cannot be had. */
export async function withConversationLock<T>(state: StateDir, key: string, critical: (lock: HeldLock) => Promise<T>): Promise<T> {
  conversationPath(state, key); // refuses a key that is not 64 hex digits, before any path is made of it
  const lockPath = path.join(state.root, LOCKS_DIR_NAME, key);
  const before = queues.get(lockPath) ?? Promise.resolve();
  const run = before.catch(() => undefined).then(() => lockAndRun(lockPath, critical));
  const tail = run.catch(() => undefined);
  queues.set(lockPath, tail);
  void tail.then(() => {
    if (queues.get(lockPath) === tail) queues.delete(lockPath);
  });
  return run;
}

async function lockAndRun<T>(lockPath: string, critical: (lock: HeldLock) => Promise<T>): Promise<T> {
  let compromised: Error | undefined;
  let release: () => Promise<void>;
  try {
    await openPrivateSubdir(path.dirname(lockPath));
    // proper-lockfile keeps its locks by the file named here, not by lockfilePath: one name per conversation.
    release = await lockfile.lock(lockPath, {
      lockfilePath: lockPath,
      realpath: false,
      stale: LOCK_STALE_MS,
      update: LOCK_UPDATE_MS,
      retries: LOCK_RETRIES,
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
  try {
    return await critical(held);
  } finally {
    await release().catch(() => undefined);
  }
}
