/**
 * Counting what the model brings back (docs/shed.md, "The working set"): each call of the current
 * turn that brought a stored text back (a `restore`, a Read of a span's or an elided file:
 * core/shed/restore-call.ts) adds one to that text's count in the conversation's record
 * (state/note-bring-backs.ts). The working set reads the count, so a text brought back twice stays
 * in it even after an epoch shed the calls that brought it back. As with refaults
 * (count-refaults.ts), only the newest calls are read, each counted once per process.
 */
import { frozenShas, hasFrozenItems, isRestoreCall, shasReadBack, type ApiDialect, type TranscriptIndex } from '../core/index.js';
import type { ConversationEntry, ConversationTable } from './conversation-table.js';

/** The calls already counted, per conversation entry, so a resent or retried request counts none twice. */
const COUNTED = new WeakMap<ConversationEntry, Set<string>>();

/** The sha256 of each stored text this request's newest calls bring back, once per call not counted before; marks them counted. */
export function newBringBacks(entry: ConversationEntry, body: Uint8Array, index: TranscriptIndex, api: ApiDialect): string[] {
  if (!hasFrozenItems(entry.items)) return [];
  const counted = COUNTED.get(entry) ?? new Set<string>();
  COUNTED.set(entry, counted);
  // Every frozen item's sha256, read only once a call brings something back: most requests have none.
  let stored: Set<string> | undefined;
  const shas: string[] = [];
  for (const call of api.newestCalls(body, index)) {
    if (counted.has(call.id) || !isRestoreCall(call)) continue;
    counted.add(call.id);
    stored ??= frozenShas(entry.items);
    shas.push(...new Set(shasReadBack(call, stored)));
  }
  return shas;
}

/** Counts this request's bring-backs into the record and takes the record written; a state failure is reported, never thrown. */
export async function countBringBacks(
  table: ConversationTable,
  entry: ConversationEntry,
  request: { readonly body: Uint8Array; readonly index: TranscriptIndex; readonly api: ApiDialect },
  onStateFailure: (error: unknown) => void,
): Promise<void> {
  const shas = newBringBacks(entry, request.body, request.index, request.api);
  if (shas.length === 0) return;
  try {
    table.adopt(entry, await table.store.noteBringBacks(entry.key, shas));
  } catch (error) {
    onStateFailure(error);
  }
}
