/**
 * Counting refaults (docs/design.md "Refault"): the calls of the current turn that read one of the
 * conversation's elided blocks back, each call counted once per conversation. For the Messages
 * API those are the newest assistant message's calls; for an OpenAI API, the calls after the
 * person's last message. Reading only the newest calls makes a resent transcript count nothing
 * again; the set of calls counted covers a request sent twice (a client's retry of the same turn)
 * and a turn's earlier steps resent with its later ones.
 */
import type { ApiDialect, Refault, TranscriptIndex } from '../core/index.js';
import type { ConversationEntry } from './conversation-table.js';

/** The refaults in this request not counted before; marks their calls as counted. */
export function countRefaults(entry: ConversationEntry, body: Uint8Array, index: TranscriptIndex, api: ApiDialect): Refault[] {
  const epochs = entry.record?.epochs ?? [];
  if (epochs.length === 0) return [];
  const calls = api.newestCalls(body, index).filter((call) => !entry.refaulted.has(call.id));
  const refaults = api.refaults(calls, epochs);
  for (const r of refaults) entry.refaulted.add(r.toolUseId);
  return refaults;
}
