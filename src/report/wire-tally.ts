/**
 * The wire log folded into per-conversation tallies, one entry at a time, so a log of any length
 * is read in one pass and `status --follow` can fold in just the lines appended since its last
 * look. Pure: plain data in, plain data out; the fold updates the tally it is given.
 */
import { readsFullness } from '../core/index.js';
import type { WireNote, WireRecord } from '../state/wire-record.js';
import type { WireEntry } from '../state/wire-line.js';
import { factsOf, foldConversation, newConversationTally, type ConversationTally } from './conversation-tally.js';
import { countRequest, newRequestCounts, type RequestCounts } from './request-counts.js';

export type { ConversationTally, RequestFacts } from './conversation-tally.js';
export { addRequestCounts, newRequestCounts, type RequestCounts } from './request-counts.js';

/** The whole wire log, folded. */
export interface WireTally {
  lines: number;
  records: number;
  notes: number;
  /** The last note about the state directory (unavailable, recovered). */
  lastNote: WireNote | null;
  /** Notes of originals that were not what their names say (`original_changed`), and the last of them. */
  originalsChanged: number;
  lastOriginalChanged: WireNote | null;
  tornMarkers: number;
  /** Lines that are not JSON or not a known shape (torn lines among them). */
  unreadable: number;
  firstAt: string | null;
  lastAt: string | null;
  /** Requests that belong to no conversation (not a model call, or a body ctxshed could not read). */
  unkeyed: RequestCounts;
  /**
   * Side calls: requests keyed like a conversation that are none of their own. Today that is a
   * `count_tokens` call whose key no model call named before it (Claude Code counts a tool list
   * or a draft on its own, each a new first message and so a new key): counted here, apart, never
   * listed as a conversation. One whose conversation already made a model call counts under it.
   */
  sideCalls: RequestCounts;
  conversations: Map<string, ConversationTally>;
}

/** An empty tally. */
export function newWireTally(): WireTally {
  return {
    lines: 0,
    records: 0,
    notes: 0,
    lastNote: null,
    originalsChanged: 0,
    lastOriginalChanged: null,
    tornMarkers: 0,
    unreadable: 0,
    firstAt: null,
    lastAt: null,
    unkeyed: newRequestCounts(),
    sideCalls: newRequestCounts(),
    conversations: new Map(),
  };
}

/** Folds one line's entry into `tally`. */
export function addWireEntry(tally: WireTally, entry: WireEntry): void {
  tally.lines += 1;
  switch (entry.kind) {
    case 'record':
      addWireRecord(tally, entry.record);
      return;
    case 'note':
      tally.notes += 1;
      // An original's note must not hide whether the state directory can be written.
      if (entry.note.note === 'original_changed') {
        tally.originalsChanged += 1;
        tally.lastOriginalChanged = entry.note;
      } else tally.lastNote = entry.note;
      return;
    case 'torn-marker':
      tally.tornMarkers += 1;
      return;
    case 'unreadable':
      tally.unreadable += 1;
      return;
  }
}

function addWireRecord(tally: WireTally, record: WireRecord): void {
  tally.records += 1;
  if (tally.firstAt === null || record.t < tally.firstAt) tally.firstAt = record.t;
  if (tally.lastAt === null || record.t > tally.lastAt) tally.lastAt = record.t;
  const facts = factsOf(record);
  if (record.key === null) {
    countRequest(tally.unkeyed, record);
    return;
  }
  if (isSideCall(record) && !tally.conversations.has(record.key)) {
    countRequest(tally.sideCalls, record);
    return;
  }
  let conversation = tally.conversations.get(record.key);
  if (conversation === undefined) {
    conversation = newConversationTally(record.key, facts);
    tally.conversations.set(record.key, conversation);
  }
  countRequest(conversation, record);
  foldConversation(conversation, record, facts);
}

/** Whether a keyed request may be a side call (see `WireTally.sideCalls`): it never makes a conversation. */
export function isSideCall(record: WireRecord): boolean {
  // A model route that gives no reading (count_tokens) is its dialect's side call.
  return record.route !== null && record.route !== undefined && !readsFullness(record.route);
}
