/**
 * `ctxshed statusline`: the one line Claude Code shows under its prompt for the conversation the
 * agent is in (docs/commands.md "ctxshed statusline"). Which conversation: Claude Code hands the
 * command its `session_id`; the proxy keeps each conversation's preview under the hash of that
 * session id (state/preview-file.ts), so the session's main conversations (no agent id) are found
 * from the previews' names, and the one with the most model calls in the wire log's tail is the
 * one the person talks to (side calls of Claude Code's own have one or two).
 */
import fs from 'node:fs/promises';
import { constants } from 'node:fs';
import type { StateDir } from '../state/layout.js';
import { readPreviews, sessionHashOf } from '../state/preview-file.js';
import { readConversation } from '../state/read-conversation.js';
import { classifyWireLine } from '../state/wire-line.js';
import { hasErrnoCode } from '../state/state-error.js';
import { summarizeConversation, type ConversationSummary } from './conversation-summary.js';
import { formatBytes, formatPercent } from './format-units.js';
import { addWireEntry, newWireTally, type WireTally } from './wire-tally.js';

/** How much of the wire log's end the status line reads: it runs after every assistant message. */
export const WIRE_TAIL_BYTES = 1024 * 1024;

/** The status line for the session `sessionId` (undefined: Claude Code named none). */
export async function statusLineFor(state: StateDir, sessionId: string | undefined): Promise<string> {
  if (sessionId === undefined) return 'ctxshed on';
  const previews = await readPreviews(state, sessionHashOf(sessionId));
  const keys = new Set([...previews.values()].filter((p) => p.agentId === null).map((p) => p.key));
  if (keys.size === 0) return 'ctxshed on · no request yet';
  const tally = await readWireTail(state.wirePath, keys);
  const main = mainConversation(tally);
  if (main === undefined) return 'ctxshed on · no request yet';
  const record = await readConversation(state, main).catch(() => undefined);
  const line = renderStatusLine(summarizeConversation(record, tally.conversations.get(main) ?? null, main));
  return `${line}${failureNote(tally.conversations.get(main)?.last.status, tally.lastNote?.note)}`;
}

/**
 * What went wrong last, for the line: `rescue` writes nothing to the terminal after its banner
 * (wrapper/quiet-terminal.ts), so a failed upstream and a state directory that cannot be written
 * are told here (and in `ctxshed status`). The upstream's own errors reach the agent as they
 * came; 5xx and none at all (ctxshed's 502 and 504 among them) are the ones a person must know.
 */
export function failureNote(lastStatus: number | undefined, lastNote: string | undefined): string {
  const upstream =
    lastStatus !== undefined && (lastStatus === 0 || lastStatus >= 500) ? ` · upstream failed (${lastStatus === 0 ? 'no answer' : lastStatus})` : '';
  const state = lastNote === 'state_unavailable' ? ' · state not writable' : '';
  return `${upstream}${state}`;
}

/** The line for one conversation: its epoch, how full the model saw its window, what is kept out. */
export function renderStatusLine(s: ConversationSummary): string {
  const window = s.window === null ? '' : ` of ${formatWindow(s.window)}`;
  const full = s.fullness === null ? 'no reading yet' : `${formatPercent(s.fullness)}${window}`;
  if (s.epochs.length === 0) return `ctxshed on · ${full} · no epoch yet`;
  const last = s.tally?.last;
  const keptOut = last === undefined || last.bytesElided === 0 ? '' : ` · ${formatBytes(last.bytesElided)} kept out`;
  return `ctxshed · epoch ${s.epochs.length} · ${full}${keptOut}`;
}

function formatWindow(tokens: number): string {
  return tokens >= 1_000_000 ? `${tokens / 1_000_000}M` : `${Math.round(tokens / 1000)}k`;
}

// The key among the tally's conversations with the most requests, the latest on a tie.
function mainConversation(tally: WireTally): string | undefined {
  let best: { key: string; requests: number; lastSeen: string } | undefined;
  for (const c of tally.conversations.values()) {
    if (best === undefined || c.requests > best.requests || (c.requests === best.requests && c.lastSeen > best.lastSeen)) {
      best = { key: c.key, requests: c.requests, lastSeen: c.lastSeen };
    }
  }
  return best?.key;
}

/** The complete lines of the wire log's last `WIRE_TAIL_BYTES`, folded, for the conversations `keys` only. */
export async function readWireTail(file: string, keys: ReadonlySet<string>): Promise<WireTally> {
  const tally = newWireTally();
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    if (hasErrnoCode(error, 'ENOENT')) return tally;
    throw error;
  }
  try {
    const { size } = await handle.stat();
    const start = Math.max(0, size - WIRE_TAIL_BYTES);
    const buffer = Buffer.alloc(size - start);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, start);
    const lines = buffer.subarray(0, bytesRead).toString('utf8').split('\n');
    // A read from the middle starts mid-line; the last piece is an unfinished line (or empty).
    for (const line of lines.slice(start === 0 ? 0 : 1, -1)) {
      if (!keys.has(keyOfLine(line))) continue;
      addWireEntry(tally, classifyWireLine(line));
    }
    return tally;
  } finally {
    await handle.close();
  }
}

// The key a wire line names, cheaply: the record is read in full only for the session's keys.
function keyOfLine(line: string): string {
  const at = line.indexOf('"key":"');
  return at === -1 ? '' : line.slice(at + 7, at + 7 + 64);
}
