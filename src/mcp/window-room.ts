/**
 * How much room the window of the conversation a text was taken from had left, as the proxy wrote
 * it into the state directory: the conversation whose record froze the text (its newest, if
 * several did), and that conversation's last reading in the wire log (its fullness and window,
 * written by the proxy for each model call: docs/state.md). Read, never guessed: unknown when
 * either is missing, and a restore then says nothing of the window.
 */
import { readWireTail } from '../report/statusline.js';
import { listConversations } from '../state/read-conversation.js';
import type { StateDir } from '../state/layout.js';
import type { ConversationRecord } from '../core/epoch-types.js';
import { epochKindInfos, itemsOfEpoch } from '../core/index.js';

/** A conversation's window at its last request. */
export interface WindowRoom {
  /** The conversation's key, and the time of the request the reading is of: what this tool gave since counts against it (room-ledger.ts). */
  readonly key: string;
  readonly at: string;
  /** Context over window at the last request, 0..1 (or over 1). */
  readonly fullness: number;
  /** The window, in tokens. */
  readonly window: number;
  /** The tokens left: the window less what the last request carried, never below 0. */
  readonly leftTokens: number;
}

/** The room of the window of the conversation that froze `handle`, or undefined when the state does not say. Never throws. */
export async function windowRoomOf(state: StateDir, handle: string): Promise<WindowRoom | undefined> {
  try {
    const records = await listConversations(state);
    const record = records.filter((r) => froze(r, handle)).at(-1);
    if (record === undefined) return undefined;
    const tally = await readWireTail(state.wirePath, new Set([record.key]));
    const reading = tally.conversations.get(record.key)?.lastReading;
    const fullness = reading?.fullness ?? null;
    const window = reading?.window ?? null;
    if (fullness === null || window === null || !(window > 0)) return undefined;
    return { key: record.key, at: reading?.t ?? '', fullness, window, leftTokens: Math.max(0, Math.round(window * (1 - fullness))) };
  } catch {
    return undefined;
  }
}

// Whether an item of some kind that gives its originals back names a file of that sha256 (a block's text or exact JSON, a span).
function froze(record: ConversationRecord, handle: string): boolean {
  const kinds = epochKindInfos().filter((k) => k.restorable !== undefined);
  return record.epochs.some((e) => kinds.some((k) => itemsOfEpoch(e, k).some((item) => k.filesOf(item).some((f) => f.sha256 === handle))));
}
