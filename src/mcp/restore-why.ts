/**
 * Why a restored page stops where it does, and how much room the window has (issues 25 and 39:
 * the answer says how much it could give, what is left, and why, so the model can work in pages,
 * and says plainly when the window is full, so it works from what it has): at the page limit, or
 * earlier to leave room in the conversation's window when the state says how much room it had
 * (window-room.ts, less what this tool gave since: room-ledger.ts), or not at all when that room
 * is nearly gone.
 */
import { RESTORE_PAGE_CHARS } from './restore-page.js';
import type { LedgerRoom } from './room-ledger.js';

/** The share of the window's room left that one page may take: the model needs the rest to work. */
export const ROOM_SHARE = 0.5;
/** Characters a token, as the room is turned into characters (the stubs' estimate, 4 bytes a token). */
export const CHARS_PER_TOKEN = 4;
/** Below this many characters of room for a page, nothing is given: the window is full. */
export const MIN_ROOM_PAGE_CHARS = 2_000;

/** The most characters a page may carry, and what set it. */
export interface PageLimit {
  readonly maxChars: number;
  /** `page_limit`: the answer's own limit; `window`: the room left; `window_full`: no room, no page. */
  readonly by: 'page_limit' | 'window' | 'window_full';
}

/** The page's limit: the page limit, or less when the window has less room than that (half of it, at 4 characters a token), or none. */
export function pageLimitOf(room: LedgerRoom | undefined): PageLimit {
  if (room === undefined) return { maxChars: RESTORE_PAGE_CHARS, by: 'page_limit' };
  const roomChars = Math.floor(room.leftTokens * ROOM_SHARE * CHARS_PER_TOKEN);
  if (roomChars >= RESTORE_PAGE_CHARS) return { maxChars: RESTORE_PAGE_CHARS, by: 'page_limit' };
  return roomChars >= MIN_ROOM_PAGE_CHARS ? { maxChars: roomChars, by: 'window' } : { maxChars: 0, by: 'window_full' };
}

/** The sentence a page that is not the last ends its header with: why it stops there. */
export function whyItStops(limit: PageLimit, room: LedgerRoom | undefined): string {
  switch (limit.by) {
    case 'page_limit':
      return `It stops there at the page limit: one answer carries at most ${count(RESTORE_PAGE_CHARS)} characters${room === undefined ? '' : `; ${roomText(room)}`}.`;
    case 'window':
    case 'window_full':
      return `It stops there to leave room in the window: ${roomText(room)}, and one page takes at most half of what is left.`;
  }
}

/** What the header of a whole text says of the room, when the state says it: '' when it does not. */
export function roomNote(room: LedgerRoom | undefined): string {
  return room === undefined ? '' : `; ${roomText(room)}`;
}

/**
 * The answer when the window has no room for a page: nothing of the text, said plainly, with where
 * to start when there is room again (`offset`).
 */
export function windowFullText(what: string, offset: number, room: LedgerRoom | undefined): string {
  return (
    `[ctxshed restore: ${what}; nothing of it follows: the conversation's window is full (${roomText(room)}). ` +
    "What was brought back since the person's latest prompt stays in the window (ctxshed never takes it out), and there is no room for more: " +
    'work from what is already in front of you. After the next prompt, or once the client compacts, there may be room again: ' +
    `call restore with offset ${offset} then.]`
  );
}

function roomText(room: LedgerRoom | undefined): string {
  if (room === undefined) return 'the room in the window is not known';
  const since = room.given > 0 ? `, less about ${count(room.given)} this restore tool gave back since` : '';
  return `the conversation had about ${count(room.leftTokens)} of its ${count(room.window)} tokens left (${Math.round(room.fullness * 100)}% full at its last request${since})`;
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}
