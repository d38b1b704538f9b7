/** `ctxshed stats` as text: overall totals, then per conversation, per epoch, and the reasons. Pure. */
import { PASSTHROUGH_REASONS } from '../core/passthrough-reasons.js';
import type { StatsReport, StatsTotals } from './stats-report.js';
import { promptForDisplay, REPORT_WIDTH, renderTable, truncate } from './format-table.js';
import { formatLocalTime } from './format-time.js';
import { formatBytes, formatCount, formatPercent, formatTokens, plural } from './format-units.js';
import { formatRefaults, NO_PROMPT } from './render-ls.js';
import { refaultRateOf } from './conversation-summary.js';
import { shortId } from './resolve-id.js';

/** The stats report as text. */
export function renderStats(report: StatsReport, stateDir: string): string {
  const { wire, overall } = report;
  const lines = [`ctxshed stats  ${stateDir}`];
  if (wire.records === 0 && report.conversations.length === 0) {
    lines.push('No requests in the wire log yet.');
    return `${lines.join('\n')}\n`;
  }
  lines.push(`wire.jsonl: ${plural(wire.records, 'request')}, ${formatLocalTime(wire.firstAt)} to ${formatLocalTime(wire.lastAt)}${skippedLines(report)}`);
  lines.push('', ...renderTotals(overall, report.unkeyed.requests));
  lines.push('', 'Per conversation', ...conversationTable(report));
  const epochRows = report.conversations.flatMap((c) =>
    c.epochs.map((e) => [
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
    const columns = [
      { header: 'KEY' },
      { header: 'EPOCH', align: 'right' },
      { header: 'LATCHED' },
      { header: 'AT', align: 'right' },
      { header: 'BLOCKS', align: 'right' },
      { header: 'ELIDED', align: 'right' },
      { header: 'TOKENS', align: 'right' },
      { header: 'REFAULTS', align: 'right' },
    ] as const;
    lines.push('', 'Per epoch (what each one shed, counted once)', ...renderTable(columns, epochRows));
  }
  const reasons = byCount(overall.passthrough);
  if (reasons.length > 0) {
    const rows = reasons.map(([reason, n]) => [reason, formatCount(n), describeReason(reason)]);
    lines.push('', 'Passed through unchanged, by reason (docs/reasons.md)');
    lines.push(...renderTable([{ header: 'REASON' }, { header: 'REQS', align: 'right' }, { header: 'WHAT IT MEANS', flex: true }], rows));
  }
  return `${lines.join('\n')}\n`;
}

function renderTotals(t: StatsTotals, unkeyed: number): string[] {
  const label = (text: string): string => text.padEnd(20);
  const reasons = byCount(t.passthrough)
    .map(([reason, n]) => `${reason} ${formatCount(n)}`)
    .join(', ');
  const skipped = byCount(t.skippedBlocks).map(([reason, n]) => `${reason} ${formatCount(n)}`);
  const lines = [
    `${label('requests')}${formatCount(t.requests)}${unkeyed > 0 ? ` (${formatCount(unkeyed)} in no conversation)` : ''}${t.errors > 0 ? `, ${formatCount(t.errors)} with an error status` : ''}`,
    `${label('rewritten')}${formatCount(t.rewritten)}`,
    truncate(`${label('passed through')}${formatCount(t.passedThrough)}${reasons === '' ? '' : `: ${reasons}`}`, REPORT_WIDTH),
  ];
  if (skipped.length > 0) lines.push(truncate(`${label('blocks left alone')}${skipped.join(', ')}`, REPORT_WIDTH));
  lines.push(
    `${label('epochs')}${formatCount(t.epochs)}, ${plural(t.blocksElided, 'block')}`,
    `${label('elided in total')}${formatBytes(t.bytesElided)}, ${formatTokens(t.tokensElided)} tokens (each epoch's shed counted once)`,
    `${label('elided per epoch')}${formatBytes(t.perEpoch.meanBytesElided)}, ${formatTokens(t.perEpoch.meanTokensElided)} tokens (mean)`,
    ...labelLine(t, label),
    `${label('per request')}${formatBytes(t.perRequest.meanBytesElided)}, ${formatTokens(t.perRequest.meanTokensElided)} tokens elided; ` +
      `${formatBytes(t.perRequest.meanBytesSaved)} smaller (mean of rewritten requests)`,
    `${label('refaults')}${t.refaultRate === null ? '-' : `${formatCount(t.blocksRefaulted)} of ${plural(t.blocksElided, 'block')} read back (${formatPercent(t.refaultRate)}), ${plural(t.refaults, 'read')}`}`,
  );
  return lines;
}

function conversationTable(report: StatsReport): string[] {
  const columns = [
    { header: 'KEY' },
    { header: 'REQS', align: 'right' },
    { header: 'REWRITTEN', align: 'right' },
    { header: 'PASSED', align: 'right' },
    { header: 'EPOCHS', align: 'right' },
    { header: 'ELIDED', align: 'right' },
    { header: 'TOKENS', align: 'right' },
    { header: 'PER REQ', align: 'right' },
    { header: 'PROMPT', flex: true },
  ] as const;
  const rows = report.conversations.map((c) => [
    shortId(c.key),
    formatCount(c.totals.requests),
    formatCount(c.totals.rewritten),
    formatCount(c.totals.passedThrough),
    formatCount(c.totals.epochs),
    formatBytes(c.totals.bytesElided),
    formatTokens(c.totals.tokensElided),
    formatBytes(c.totals.perRequest.meanBytesElided),
    c.firstPrompt === null ? NO_PROMPT : promptForDisplay(c.firstPrompt),
  ]);
  return renderTable(columns, rows);
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

function describeReason(reason: string): string {
  return Object.hasOwn(PASSTHROUGH_REASONS, reason) ? PASSTHROUGH_REASONS[reason as keyof typeof PASSTHROUGH_REASONS] : '(not a reason this ctxshed knows)';
}

// Only when some epoch keeps a ledger (policy version 3): older state has no labels to count.
function labelLine(t: StatsTotals, label: (text: string) => string): string[] {
  const { keep, pointer, drop } = t.labels;
  if (keep + pointer + drop === 0) return [];
  return [`${label('labels')}pointer ${formatCount(pointer)}, drop ${formatCount(drop)}, keep ${formatCount(keep)} (docs/labels.md)`];
}
