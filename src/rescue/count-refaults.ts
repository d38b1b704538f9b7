/**
 * Counting refaults (DESIGN.md "Refault"): the calls of the newest assistant message that read
 * one of the conversation's elided blocks back, each call counted once per conversation. The
 * newest message alone makes a resent transcript count nothing again; the set of calls counted
 * covers a request sent twice (a client's retry of the same turn).
 */
import { detectRefaults, readNewestToolCalls, type Refault, type TranscriptIndex } from '../core/index.js';
import type { ConversationEntry } from './conversation-table.js';

/** The refaults in this request not counted before; marks their calls as counted. */
export function countRefaults(entry: ConversationEntry, body: Uint8Array, index: TranscriptIndex): Refault[] {
  const epochs = entry.record?.epochs ?? [];
  if (epochs.length === 0) return [];
  const calls = readNewestToolCalls(body, index).filter((call) => !entry.refaulted.has(call.id));
  const refaults = detectRefaults(calls, epochs);
  for (const r of refaults) entry.refaulted.add(r.toolUseId);
  return refaults;
}
