/**
 * Counting what the model brought back in a conversation's record (`bringBacks`, core/epoch-types.ts):
 * the same read-modify-write as a latch (latch-epoch.ts), under the conversation's lock and written
 * atomically, so the count survives the calls that made it being shed and the proxy restarting.
 */
import { writeFileDurable } from './atomic-write.js';
import { checkConversationRecord } from './check-conversation-record.js';
import { serializeConversationRecord, type ConversationRecord } from './conversation-record.js';
import { conversationPath, type StateDir } from './layout.js';
import { readConversation } from './read-conversation.js';
import { StateError } from './state-error.js';
import { withConversationLock } from './conversation-lock.js';

/**
 * Adds one to the count of each sha256 in `shas` (one per call that brought it back) in conversation
 * `key`'s record, and returns the record now on disk. A conversation with no record yet has frozen
 * nothing, so nothing of it can come back: it is left alone.
 */
export async function noteBringBacks(state: StateDir, key: string, shas: readonly string[]): Promise<ConversationRecord | undefined> {
  return withConversationLock(state, key, async (lock) => {
    const current = await readConversation(state, key);
    const counted = countedIn(current, key, shas);
    if (counted === undefined) return current;
    lock.assertHeld();
    await writeFileDurable(conversationPath(state, key), counted.bytes);
    return counted.next;
  });
}

/**
 * `current` with one more bring-back for each sha256 in `shas`, and its bytes, checked as they will
 * be read back (every store writes these); undefined when there is nothing to write.
 */
export function countedIn(
  current: ConversationRecord | undefined,
  key: string,
  shas: readonly string[],
): { readonly next: ConversationRecord; readonly bytes: Uint8Array } | undefined {
  if (current === undefined || shas.length === 0) return undefined;
  const counts: Record<string, number> = { ...(current.bringBacks ?? {}) };
  for (const sha of shas) counts[sha] = (counts[sha] ?? 0) + 1;
  const next: ConversationRecord = { ...current, bringBacks: counts };
  const bytes = serializeConversationRecord(next);
  const problems = checkConversationRecord(JSON.parse(Buffer.from(bytes).toString('utf8')), key);
  if (problems.length > 0) throw new StateError('STATE_BAD_RECORD', `refusing to write the bring-backs of ${key}: ${problems.join('; ')}`);
  return { next, bytes };
}
