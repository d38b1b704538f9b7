/**
 * Why a restored page stops where it does (issue 25: the answer says how much it could give, what
 * is left, and why, so the model can work in pages): at the page limit, or earlier to leave room
 * in the conversation's window when the state says how much room it had (window-room.ts).
 */
import { RESTORE_PAGE_CHARS } from './restore-page.js';
import type { WindowRoom } from './window-room.js';

/** The share of the window's room left that one page may take: the model needs the rest to work. */
export const ROOM_SHARE = 0.5;
/** Characters a token, as the room is turned into characters (the stubs' estimate, 4 bytes a token). */
export const CHARS_PER_TOKEN = 4;
/** The fewest characters a page gives however little room is left, so paging always moves on. */
export const MIN_ROOM_PAGE_CHARS = 2_000;

/** The most characters a page may carry, and what set it. */
export interface PageLimit {
  readonly maxChars: number;
  /** `page_limit`: the answer's own limit; `window`: the room left; `window_floor`: the room is nearly gone, the floor. */
  readonly by: 'page_limit' | 'window' | 'window_floor';
}

/** The page's limit: the page limit, or less when the window has less room than that (half of it, at 4 characters a token). */
export function pageLimitOf(room: WindowRoom | undefined): PageLimit {
  if (room === undefined) return { maxChars: RESTORE_PAGE_CHARS, by: 'page_limit' };
  const roomChars = Math.floor(room.leftTokens * ROOM_SHARE * CHARS_PER_TOKEN);
  if (roomChars >= RESTORE_PAGE_CHARS) return { maxChars: RESTORE_PAGE_CHARS, by: 'page_limit' };
  return roomChars > MIN_ROOM_PAGE_CHARS ? { maxChars: roomChars, by: 'window' } : { maxChars: MIN_ROOM_PAGE_CHARS, by: 'window_floor' };
}

/** The sentence a page that is not the last ends its header with: why it stops there. */
export function whyItStops(limit: PageLimit, room: WindowRoom | undefined): string {
  switch (limit.by) {
    case 'page_limit':
      return `It stops there at the page limit: one answer carries at most ${count(RESTORE_PAGE_CHARS)} characters${room === undefined ? '' : `; ${roomText(room)}`}.`;
    case 'window':
      return `It stops there to leave room in the window: ${roomText(room)}, and one page takes at most half of what is left.`;
    case 'window_floor':
      return `It stops there because the window is nearly full: ${roomText(room)}; pages are cut to ${count(MIN_ROOM_PAGE_CHARS)} characters until there is more room.`;
  }
}

function roomText(room: WindowRoom | undefined): string {
  if (room === undefined) return 'the room in the window is not known';
  return `the conversation had about ${count(room.leftTokens)} of its ${count(room.window)} tokens left at its last request (${Math.round(room.fullness * 100)}% full)`;
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}
