/** `ctxshed stats` as text: overall totals, then per conversation, per epoch, and the reasons. Pure. */
import { kindOfMode } from '../core/index.js';
import { HOLD_REASONS } from '../core/decide/hold-reasons.js';
import { PASSTHROUGH_REASONS } from '../core/passthrough-reasons.js';
import { countsOf, type StatsReport, type StatsTotals } from './stats-report.js';
import { fitLines } from './fit-lines.js';
import { droppedNote, fitTable, promptForDisplay, REPORT_WIDTH, renderTable, type Column } from './format-table.js';
import { formatLocalTime } from './format-time.js';
import { formatBytes, formatCount, formatPercent, formatTokens, plural } from './format-units.js';
import { formatRefaults, NO_PROMPT } from './render-ls.js';
import { refaultRateOf } from './conversation-summary.js';
import { shortId } from './resolve-id.js';

/** The stats report as text, laid out to `width`. */
export function renderStats(report: StatsReport, stateDir: string, width = REPORT_WIDTH): string {
  const { wire, overall } = report;
  const lines = [`ctxshed stats  ${stateDir}`];
  if (wire.records === 0 && report.conversations.length === 0) {
    lines.push('No requests in the wire log yet.');
    return `${fitLines(lines, width).join('\n')}\n`;
  }
  lines.push(`wire.jsonl: ${plural(wire.records, 'request')}, ${formatLocalTime(wire.firstAt)} to ${formatLocalTime(wire.lastAt)}${skippedLines(report)}`);
  lines.push('', ...renderTotals(overall, report.unkeyed.requests, report.sideCalls.requests));
  lines.push('', 'Per conversation', ...conversationTable(report, width));
  const epochRows = report.conversations.flatMap((c) =>
    c.epochs
      .filter((e) => countsOf(e) === 'blocks')
      .map((e) => [
        shortId(c.key),
        String(e.n),
        formatLocalTime(e.latchedAt),
        formatPercent(e.fullness),
        formatCount(e.blocks),
        formatBytes(e.bytes),
        formatTokens(e.tokens),
        formatRefaults(e.blocksRefaulted, refaultRateOf(e.blocksRefaulted, e.blocks)),
      ]),
  );
  if (epochRows.length > 0) {
    // On a narrow terminal LATCHED gives way first (ctxshed show KEY has it), then TOKENS.
    const columns = [
      { header: 'KEY' },
      { header: 'EPOCH', align: 'right' },
      { header: 'LATCHED', drop: 2 },
      { header: 'AT', align: 'right' },
      { header: 'BLOCKS', align: 'right' },
      { header: 'ELIDED', align: 'right' },
      { header: 'TOKENS', align: 'right', drop: 1 },
      { header: 'REFAULTS', align: 'right' },
    ] as const;
    lines.push('', 'Per epoch (what each one shed, counted once)', ...tableLines(columns, epochRows, width));
  }
  lines.push(...shedTable(report, width));
  const reasons = byCount(overall.passthrough);
  if (reasons.length > 0) {
    const rows = reasons.map(([reason, n]) => [reason, formatCount(n), describeReason(reason)]);
    lines.push('', 'Passed through unchanged, by reason (docs/reasons.md)');
    lines.push(...renderTable(REASON_COLUMNS, rows, width));
  }
  const classes = byCount(overall.classes);
  if (classes.length > 0) {
    lines.push('', 'Requests by Claude Code\'s request class (docs/rescue.md, "Request classes")');
    lines.push(
      ...renderTable(
        [{ header: 'CLASS' }, { header: 'REQS', align: 'right' }],
        classes.map(([cls, n]) => [cls, formatCount(n)]),
      ),
    );
  }
  const holds = byCount(overall.holds);
  if (holds.length > 0) {
    const rows = holds.map(([reason, n]) => [reason, formatCount(n), describeHold(reason)]);
    lines.push('', 'Over the threshold, no epoch latched, by reason (docs/reasons.md)');
    lines.push(...renderTable(REASON_COLUMNS, rows, width));
  }
  return `${fitLines(lines, width).join('\n')}\n`;
}

/** A reasons table: each meaning whole, wrapped in the room left, never cut. */
const REASON_COLUMNS: readonly Column[] = [
  { header: 'REASON' },
  { header: 'REQS', align: 'right' },
  { header: 'WHAT IT MEANS', flex: true, min: 20, wrap: Number.POSITIVE_INFINITY },
];

/** A table laid out to `width`, and a line naming the columns it left out. */
function tableLines(columns: readonly Column[], rows: readonly (readonly string[])[], width: number): string[] {
  const table = fitTable(columns, rows, width);
  return [...table.lines, ...droppedNote(table.dropped)];
}

function renderTotals(t: StatsTotals, unkeyed: number, sideCalls: number): string[] {
  const label = (text: string): string => text.padEnd(20);
  const reasons = byCount(t.passthrough)
    .map(([reason, n]) => `${reason} ${formatCount(n)}`)
    .join(', ');
  const skipped = byCount(t.skippedBlocks).map(([reason, n]) => `${reason} ${formatCount(n)}`);
  const lines = [
    `${label('requests')}${formatCount(t.requests)}${apart(unkeyed, sideCalls)}${t.errors > 0 ? `, ${formatCount(t.errors)} with an error status` : ''}`,
    `${label('rewritten')}${formatCount(t.rewritten)}`,
    `${label('passed through')}${formatCount(t.passedThrough)}${reasons === '' ? '' : `: ${reasons}`}`,
  ];
  if (skipped.length > 0) lines.push(`${label('blocks left alone')}${skipped.join(', ')}`);
  const overflow = overflowLine(t.overflow);
  if (overflow !== undefined) lines.push(`${label('too long')}${overflow}`);
  if (t.thinkingRemoved > 0)
    lines.push(
      `${label('thinking removed')}${plural(t.thinkingRemoved, 'block')} over ${plural(t.thinkingRequests, 'request')} (docs/rescue.md, "Preserved thinking")`,
    );
  if (t.thinkingDropped > 0) {
    const by = byCount(t.thinkingDroppedBy).map(([reason, n]) => `${reason} ${formatCount(n)}`);
    lines.push(
      `${label('thinking dropped')}${plural(t.thinkingDropped, 'block')} in ${plural(t.thinkingDroppedRequests, 'request')}${by.length === 0 ? '' : `: ${by.join(', ')}`}`,
    );
  }
  const corrected = t.corrections === 0 ? '' : `, ${plural(t.corrections, 'correction')} (thinking only)`;
  lines.push(`${label('epochs')}${formatCount(t.epochs)}, ${plural(t.blocksElided, 'block')}${corrected}`);
  if (t.shed.epochs > 0) {
    // Shed epochs are counted, never summed: their bytes and tokens are each epoch's own.
    lines.push(
      `${label('shed')}${plural(t.shed.spans, 'span')}, ${plural(t.shed.messages, 'message')} in ${plural(t.shed.epochs, 'shed epoch')} (each one's figures below, never summed)`,
    );
    // Rescue's lines only when there is rescue to report: zeros would read as a shed of nothing.
    if (t.epochs === t.shed.epochs + t.corrections) return lines;
  }
  lines.push(
    `${label('elided in total')}${formatBytes(t.bytesElided)}, ${formatTokens(t.tokensElided)} tokens (each epoch's shed counted once)`,
    `${label('elided per epoch')}${formatBytes(t.perEpoch.meanBytesElided)}, ${formatTokens(t.perEpoch.meanTokensElided)} tokens (mean)`,
    ...labelLine(t, label),
    // With shed conversations beside them, the means are over rescue conversations' requests only.
    `${label(t.shed.epochs > 0 ? 'per rescue request' : 'per request')}${formatBytes(t.perRequest.meanBytesElided)}, ${formatTokens(t.perRequest.meanTokensElided)} tokens elided; ` +
      `${formatBytes(t.perRequest.meanBytesSaved)} smaller (mean of rewritten requests)`,
    `${label('refaults')}${t.refaultRate === null ? '-' : `${formatCount(t.blocksRefaulted)} of ${plural(t.blocksElided, 'block')} read back (${formatPercent(t.refaultRate)}), ${plural(t.refaults, 'read')}`}`,
  );
  return lines;
}

// Shed mode (docs/shed.md): one row per epoch, its span and what a later turn no longer pays,
// priced as the provider would have billed it and stamped with the basis. No total row.
function shedTable(report: StatsReport, width: number): string[] {
  const rows = report.conversations.flatMap((c) =>
    c.epochs.flatMap((e) => {
      if (e.span === null) return [];
      const span = e.span;
      return [
        [
          shortId(c.key),
          String(e.n),
          formatPercent(e.fullness),
          `${formatCount(span.messages)} (${span.first}..${span.last})`,
          formatBytes(span.bytes),
          formatTokens(span.tokens),
          span.perTurn === null ? '-' : formatTokens(span.perTurn.inputTokenEquivalent),
          span.perTurn === null ? '-' : span.perTurn.basis,
        ],
      ];
    }),
  );
  if (rows.length === 0) return [];
  // No LATCHED column: the basis needs the width (ctxshed show KEY has the time). On a narrow
  // terminal TOKENS gives way first, then MESSAGES and AT: PER TURN and its BASIS stay.
  const columns = [
    { header: 'KEY' },
    { header: 'EPOCH', align: 'right' },
    { header: 'AT', align: 'right', drop: 1 },
    { header: 'MESSAGES', align: 'right', drop: 2 },
    { header: 'SHED', align: 'right' },
    { header: 'TOKENS', align: 'right', drop: 3 },
    { header: 'PER TURN', align: 'right' },
    { header: 'BASIS' },
  ] as const;
  return [
    '',
    'Shed per epoch (spans of whole messages, each epoch on its own, never summed)',
    ...tableLines(columns, rows, width),
    'PER TURN: input-token equivalents a later turn no longer pays: the warm part at the cache-read marginal (0.1), the cold part at full input; BASIS says which (docs/shed.md, "Honest accounting").',
    restoredLine(report),
  ];
}

function conversationTable(report: StatsReport, width: number): string[] {
  // The prompt takes the room left (two lines of it, then cut); on a narrow terminal the columns
  // give way, first to last: PER REQ, TOKENS, PASSED, REWRITTEN.
  const columns = [
    { header: 'KEY' },
    { header: 'REQS', align: 'right' },
    { header: 'REWRITTEN', align: 'right', drop: 1 },
    { header: 'PASSED', align: 'right', drop: 2 },
    { header: 'EPOCHS', align: 'right' },
    { header: 'ELIDED', align: 'right' },
    { header: 'TOKENS', align: 'right', drop: 3 },
    { header: 'PER REQ', align: 'right', drop: 4 },
    { header: 'PROMPT', flex: true, min: 20, wrap: 2 },
  ] as const;
  const rows = report.conversations.map((c) => {
    const spans = kindOfMode(c.mode).counts === 'spans';
    return [
      shortId(c.key),
      formatCount(c.totals.requests),
      formatCount(c.totals.rewritten),
      formatCount(c.totals.passedThrough),
      formatCount(c.totals.epochs),
      // A shed conversation elides no blocks: its spans are in the shed table, per epoch.
      spans ? '-' : formatBytes(c.totals.bytesElided),
      spans ? '-' : formatTokens(c.totals.tokensElided),
      spans ? '-' : formatBytes(c.totals.perRequest.meanBytesElided),
      c.firstPrompt === null ? NO_PROMPT : promptForDisplay(c.firstPrompt),
    ];
  });
  return tableLines(columns, rows, width);
}

function skippedLines(report: StatsReport): string {
  const { unreadable, tornMarkers } = report.wire;
  if (unreadable === 0) return '';
  return `; ${plural(unreadable, 'line')} skipped (not a record${tornMarkers > 0 ? `; ${formatCount(tornMarkers)} torn by a crash` : ''})`;
}

// Most first, then by name, so the order is the same on every run.
function byCount(counts: Readonly<Record<string, number>>): Array<[string, number]> {
  return Object.entries(counts).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

function describeHold(reason: string): string {
  return Object.hasOwn(HOLD_REASONS, reason) ? HOLD_REASONS[reason as keyof typeof HOLD_REASONS] : '(not a reason this ctxshed knows)';
}

function describeReason(reason: string): string {
  return Object.hasOwn(PASSTHROUGH_REASONS, reason) ? PASSTHROUGH_REASONS[reason as keyof typeof PASSTHROUGH_REASONS] : '(not a reason this ctxshed knows)';
}

// Only when some epoch keeps a ledger (policy version 3): older state has no labels to count.
function labelLine(t: StatsTotals, label: (text: string) => string): string[] {
  const { keep, pointer, drop } = t.labels;
  if (keep + pointer + drop === 0) return [];
  return [`${label('labels')}pointer ${formatCount(pointer)}, drop ${formatCount(drop)}, keep ${formatCount(keep)} (docs/labels.md)`];
}

// Rescue on overflow (docs/rescue.md): the refusals as too long, and what became of each.
function overflowLine(overflow: Readonly<Record<string, number>>): string | undefined {
  const total = Object.values(overflow).reduce((sum, n) => sum + n, 0);
  if (total === 0) return undefined;
  const ok = overflow['retried_ok'] ?? 0;
  const failed = overflow['retried_error'] ?? 0;
  const declined = byCount(overflow).filter(([why]) => why !== 'retried_ok' && why !== 'retried_error');
  const parts = [`${formatCount(ok + failed)} retried with a new epoch (${formatCount(ok)} answered 200)`];
  if (declined.length > 0)
    parts.push(`${formatCount(declined.reduce((sum, [, n]) => sum + n, 0))} not (${declined.map(([why, n]) => `${why} ${formatCount(n)}`).join(', ')})`);
  return `${formatCount(total)} refused: ${parts.join(', ')}`;
}

// A span read back by its handle is a refault of it; twice or more, the recent window was cut too close.
function restoredLine(report: StatsReport): string {
  const restored = report.conversations.flatMap((c) =>
    c.epochs.flatMap((e) =>
      e.span === null || e.span.restores === 0 ? [] : [`${shortId(c.key)} #${e.n} ${e.span.restores === 1 ? 'once' : `${e.span.restores} times`}`],
    ),
  );
  const twice = report.conversations.reduce((n, c) => n + c.epochs.filter((e) => (e.span?.restores ?? 0) >= 2).length, 0);
  if (restored.length === 0) return 'Spans restored (refaults of a span): none.';
  return `Spans restored (refaults of a span): ${restored.join(', ')}; restored twice or more (cut too close): ${twice}.`;
}

// The requests counted in no conversation: unkeyed ones, and side calls (count_tokens).
function apart(unkeyed: number, sideCalls: number): string {
  const parts = [
    ...(unkeyed > 0 ? [`${formatCount(unkeyed)} in no conversation`] : []),
    ...(sideCalls > 0 ? [`${plural(sideCalls, 'side call')} (count_tokens)`] : []),
  ];
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
}
