/** `ctxshed ls` as text: one line per conversation. Pure. */
import { kindOfMode } from '../core/index.js';
import { refaultRateOf, type ConversationSummary } from './conversation-summary.js';
import { fitLines } from './fit-lines.js';
import { droppedNote, fitTable, promptForDisplay, REPORT_WIDTH } from './format-table.js';
import { formatAgo } from './format-time.js';
import { formatBytes, formatCount, formatPercent, plural } from './format-units.js';
import { shortId } from './resolve-id.js';

/**
 * What a conversation shows when neither its record (epochs) nor its preview (previews/, from its
 * first model call) holds its prompt: one seen before previews were kept, or whose files are gone.
 */
export const NO_PROMPT = '(prompt unknown)';

/** What `ls` shows besides the conversations: side calls, lines of the wire log that did not read, and the width. */
export interface LsOptions {
  /** `count_tokens` calls counted apart, in no conversation. */
  readonly sideCalls?: number;
  /** Lines of wire.jsonl that are not a record (junk, or torn by a crash): left out of every figure. */
  readonly unreadableLines?: number;
  /** No line is longer, but a key or path too long for any line (default `REPORT_WIDTH`). */
  readonly width?: number;
}

/** The table of conversations and a total line, laid out to the width. */
export function renderLs(summaries: readonly ConversationSummary[], nowMs: number, options: LsOptions = {}): string {
  const width = options.width ?? REPORT_WIDTH;
  const unread = unreadLine(options.unreadableLines ?? 0);
  if (summaries.length === 0)
    return `${fitLines(['No conversations yet: nothing has gone through a ctxshed proxy with this state directory.', ...unread], width).join('\n')}\n`;
  // The SPANS column only when some conversation sheds, so rescue's table stays as it was.
  const anyShed = summaries.some((s) => kindOfMode(s.mode).counts === 'spans');
  // The prompt last, taking the room left (two lines of it, then cut); the columns that give way
  // on a narrow terminal, first to last: BLOCKS (ELIDED says how much), REQS, REFAULTS, SPANS, LAST SEEN.
  const columns = [
    { header: 'KEY' },
    { header: 'LAST SEEN', align: 'right', drop: 1 },
    { header: 'FULL', align: 'right' },
    { header: 'EPOCHS', align: 'right' },
    { header: 'BLOCKS', align: 'right', drop: 5 },
    { header: 'ELIDED', align: 'right' },
    { header: 'REFAULTS', align: 'right', drop: 3 },
    ...(anyShed ? [{ header: 'SPANS', align: 'right', drop: 2 } as const] : []),
    { header: 'REQS', align: 'right', drop: 4 },
    { header: 'PROMPT', flex: true, min: 20, wrap: 2 },
  ] as const;
  const rows = summaries.map((s) => {
    const shed = kindOfMode(s.mode).counts === 'spans';
    return [
      shortId(s.key),
      formatAgo(s.lastSeen, nowMs),
      formatPercent(s.fullness),
      String(s.epochs.length),
      // A shed conversation elides no blocks: its spans are counted in SPANS.
      shed ? '-' : formatCount(s.blocksElided),
      shed ? '-' : formatBytes(s.bytesElided),
      // The rate alone: the prompt needs the width, and BLOCKS gives the count it is a share of.
      s.refaultRate === null ? '-' : formatPercent(s.refaultRate),
      ...(anyShed ? [shed ? formatCount(s.spansShed) : '-'] : []),
      formatCount(s.requests),
      s.firstPrompt === null ? NO_PROMPT : promptForDisplay(s.firstPrompt),
    ];
  });
  const epochs = summaries.reduce((n, s) => n + s.epochs.length, 0);
  const blocks = summaries.reduce((n, s) => n + s.blocksElided, 0);
  const bytes = summaries.reduce((n, s) => n + s.bytesElided, 0);
  const refaulted = summaries.reduce((n, s) => n + s.blocksRefaulted, 0);
  const total = `${plural(summaries.length, 'conversation')}, ${plural(epochs, 'epoch')}, ${plural(blocks, 'block')} elided: ${formatBytes(bytes)} (each shed counted once).`;
  const misses = `Read back later (refaults): ${formatRefaults(refaulted, refaultRateOf(refaulted, blocks))} of the blocks elided.`;
  const table = fitTable(columns, rows, width);
  const lines = [...table.lines, ...droppedNote(table.dropped), '', total];
  const sideCalls = options.sideCalls ?? 0;
  if (sideCalls > 0) lines.push(`Side calls (count_tokens), counted apart, in no conversation: ${formatCount(sideCalls)}.`);
  if (anyShed) {
    const spans = summaries.reduce((n, s) => n + s.spansShed, 0);
    const messages = summaries.reduce((n, s) => n + s.messagesShed, 0);
    lines.push(`Shed: ${plural(spans, 'span')} of ${plural(messages, 'whole message')}; each epoch's bytes, tokens and per-turn price: ctxshed stats.`);
  }
  const other = otherKindsLine(summaries);
  if (other !== undefined) lines.push(other);
  lines.push(misses, ...unread, 'One conversation in full: ctxshed show KEY');
  return `${fitLines(lines, width).join('\n')}\n`;
}

// A junk or torn line of the wire log is left out of every figure: say so, or the totals would look complete.
function unreadLine(unreadable: number): string[] {
  if (unreadable === 0) return [];
  return [`wire.jsonl: ${plural(unreadable, 'line')} could not be read (not a record), left out of these figures.`];
}

/**
 * The items the registered epoch kinds froze over all conversations, one figure per kind
 * (`Other kinds: 3 assistant_text items frozen.`); undefined when none did.
 */
function otherKindsLine(summaries: readonly ConversationSummary[]): string | undefined {
  const totals = new Map<string, number>();
  for (const s of summaries) for (const [tag, n] of Object.entries(s.itemsFrozen)) totals.set(tag, (totals.get(tag) ?? 0) + n);
  if (totals.size === 0) return undefined;
  return `Other kinds: ${[...totals].map(([tag, n]) => plural(n, `${tag} item`)).join(', ')} frozen.`;
}

/** Blocks read back and their share of the blocks elided: `1 (9.1%)`, or `-` with none elided. */
export function formatRefaults(blocksRefaulted: number, rate: number | null): string {
  return rate === null ? '-' : `${formatCount(blocksRefaulted)} (${formatPercent(rate)})`;
}
