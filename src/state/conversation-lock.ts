/**
 * Mutual exclusion over one conversation's record, between processes and within one
 * (docs/team.md "Latching at load"): a latch, and the count of bring-backs, read-decide-write
 * their conversation's record under its own lock, `.locks/<key>`, so latches of different
 * conversations no longer wait on each other. The content files they write are named by their
 * sha256 and created atomically (a staged file renamed into place), so two latches writing the
 * same bytes agree whichever lands last. `ctxshed seal` and `unseal` keep the whole-state lock
 * (state-lock.ts).
 */
import path from 'node:path';
import { conversationPath, LOCKS_DIR_NAME, type StateDir } from './layout.js';
import { openPrivateSubdir } from './private-subdir.js';
import { type HeldLock, withLockAt } from './state-lock.js';

/** Runs `critical` holding conversation `key`'s lock; throws STATE_LOCK_FAILED if it cannot be had. */
export async function withConversationLock<T>(state: StateDir, key: string, critical: (lock: HeldLock) => Promise<T>): Promise<T> {
  conversationPath(state, key); // refuses a key that is not 64 hex digits, before any path is made of it
  const lockPath = path.join(state.root, LOCKS_DIR_NAME, key);
  // Owned: a lock a killed proxy left mid-latch is taken over at once, not after it goes stale.
  return withLockAt(lockPath, critical, () => openPrivateSubdir(path.dirname(lockPath)), true);
}
