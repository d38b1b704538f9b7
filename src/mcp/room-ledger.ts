/**
 * What this restore tool gave back since a conversation's last request (issue 39: the restore tool
 * gives no more than the room left). The room is read from the proxy's last reading
 * (window-room.ts), which cannot see the pages answered since: a model that calls restore several
 * times in one turn would otherwise get half the same room each time. One ledger per MCP server,
 * that is per client session; a newer reading of the conversation starts it again from nothing,
 * since that request carried what was given.
 */
import type { WindowRoom } from './window-room.js';

/** The room as this tool sees it: the reading's, less what it gave since. */
export interface LedgerRoom extends WindowRoom {
  /** Tokens this tool gave back since the reading (restore-why.ts's CHARS_PER_TOKEN characters a token). */
  readonly given: number;
}

/** What one MCP server gave back per conversation since that conversation's last reading. */
export class RoomLedger {
  readonly #given = new Map<string, { readonly at: string; tokens: number }>();

  /** `room` less what was given since its reading; undefined stays undefined. */
  left(room: WindowRoom | undefined): LedgerRoom | undefined {
    if (room === undefined) return undefined;
    const kept = this.#given.get(room.key);
    const given = kept?.at === room.at ? kept.tokens : 0;
    return { ...room, leftTokens: Math.max(0, room.leftTokens - given), given };
  }

  /** Notes `tokens` given back against `room`'s conversation and reading. */
  note(room: WindowRoom | undefined, tokens: number): void {
    if (room === undefined || tokens <= 0) return;
    const kept = this.#given.get(room.key);
    if (kept?.at === room.at) kept.tokens += tokens;
    else this.#given.set(room.key, { at: room.at, tokens });
  }
}
