/** Latching an epoch: the one read-decide-write of a conversation's record, under that conversation's lock. */
import fs from 'node:fs/promises';
import { writeFileDurable } from './atomic-write.js';
import { checkConversationRecord } from './check-conversation-record.js';
import { crashPoint } from './crash-point.js';
import { serializeConversationRecord, type ConversationRecord } from './conversation-record.js';
import { withConversationLock } from './conversation-lock.js';
import { conversationPath, type StateDir } from './layout.js';
import { exclusively, sharedLatch } from './latch-gate.js';
import { checkPlanFiles } from './check-plan-files.js';
import { readConversation } from './read-conversation.js';
import { pendingOrphans, reclaimOrphans, reclaimPending } from './reclaim-orphans.js';
import { StateError } from './state-error.js';
import type { HeldLock } from './state-lock.js';
import { writeOriginals } from './write-originals.js';
import type { LatchPlan } from '../core/plan-record.js';

export type { LatchPlan, PlannedFile, PlannedOriginal } from '../core/plan-record.js';

/** What `decide` is handed (the record as it is on disk now) and what it may answer. */
export type LatchDecision = (current: ConversationRecord | undefined) => Promise<LatchPlan | undefined> | LatchPlan | undefined;

/**
 * Under conversation `key`'s lock (conversation-lock.ts), re-reads its record, asks `decide`, and
 * if it returns a plan writes its files durably (every kind's as one batch, write-originals.ts)
 * and then the record atomically. Returns the record now on disk. Latches of other conversations
 * run meanwhile; what a failed latch leaves is removed once none is in flight (latch-gate.ts).
 */
export async function latchEpoch(state: StateDir, key: string, decide: LatchDecision): Promise<ConversationRecord | undefined> {
  return withConversationLock(state, key, async (lock) => {
    const orphans: string[] = [];
    let written: ConversationRecord | undefined;
    try {
      written = await sharedLatch(() => latchLocked(state, key, decide, lock, orphans));
    } catch (error) {
      if (orphans.length > 0) await exclusively(() => reclaimOrphans(state, orphans)).catch(() => undefined);
      throw error;
    }
    if (pendingOrphans(state) > 0) await exclusively(() => reclaimPending(state));
    return written;
  });
}

/** The read-decide-write; on a failure whose record did not land, `orphans` gets the files it created. */
async function latchLocked(state: StateDir, key: string, decide: LatchDecision, lock: HeldLock, orphans: string[]): Promise<ConversationRecord | undefined> {
  const target = conversationPath(state, key);
  // Another process may have latched since the caller last looked: decide on what is on disk.
  const current = await readConversation(state, key);
  const plan = await decide(current);
  if (plan === undefined) return current;
  const bytes = serializeConversationRecord(plan.record);
  // Checked as it will be read back, so nothing is written that readConversation would refuse.
  const onDisk: unknown = JSON.parse(Buffer.from(bytes).toString('utf8'));
  const next = checkPlanRecord(key, current, onDisk);
  const created: string[] = [];
  try {
    await writePlanFiles(state, plan, created);
    await checkPlanFiles(state, next.epochs.slice(current?.epochs.length ?? 0));
    lock.assertHeld();
    await writeFileDurable(target, bytes);
  } catch (error) {
    // A record that did land names its files: they stay. Otherwise the ones this latch made are orphans.
    if (!(await holdsBytes(target, bytes))) orphans.push(...created);
    throw error;
  }
  crashPoint('latch-after-record');
  return next;
}

/**
 * Files first, all durable before the record: a record must never name a file that a crash could
 * still take away (docs/design.md invariants 5 and 8). Every kind's originals go by one batch
 * (write-originals.ts), each in its kind's folder; each file this write creates is noted in
 * `created` first.
 */
async function writePlanFiles(state: StateDir, plan: LatchPlan, created: string[]): Promise<void> {
  await writeOriginals(state, plan.originals, created, () => crashPoint('latch-after-first-file'));
  crashPoint('latch-after-all-files');
}

/** Whether `file` holds exactly `bytes`. */
async function holdsBytes(file: string, bytes: Uint8Array): Promise<boolean> {
  const onDisk = await fs.readFile(file).catch(() => undefined);
  return onDisk !== undefined && Buffer.compare(onDisk, bytes) === 0;
}

// Epochs only latch forwards: a plan may append epochs, never drop or rewrite a latched one.
export function checkPlanRecord(key: string, current: ConversationRecord | undefined, onDisk: unknown): ConversationRecord {
  const problems = checkConversationRecord(onDisk, key);
  if (problems.length === 0) {
    const kept = current?.epochs ?? [];
    const next = (onDisk as ConversationRecord).epochs;
    if (next.length < kept.length) problems.push('it drops latched epochs');
    const changed = kept.findIndex((epoch, i) => canonical(epoch) !== canonical(next[i]));
    if (changed >= 0) problems.push(`it changes latched epoch #${changed + 1}`);
  }
  if (problems.length > 0) {
    const why = problems.join('; ');
    throw new StateError('STATE_BAD_PLAN', `refusing to write the record of ${key}: ${why}`);
  }
  return onDisk as ConversationRecord;
}

/** JSON with object keys sorted, so two epochs compare equal whatever order their keys were built in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    typeof inner === 'object' && inner !== null && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}
