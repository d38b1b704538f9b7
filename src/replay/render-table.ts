/**
 * The terminal text of a replay: per session its head, the whole-session table, the table up to
 * the first compaction and the notes under it, then every session with the total across them.
 * Laid out to a width (text-layout.ts): each table in full where it fits, else compact, and no
 * line longer than the width. Pure: reports in, text out.
 */
import { dollarCell, unknownModelsLine } from './cost-cell.js';
import { footLines, missLines } from './render-table-notes.js';
import { strategyTableLines } from './render-strategy-table.js';
import { totalsLines } from './render-totals.js';
import { wholeSessionIntro, wholeSessionTable } from './render-whole-session.js';
import type { SessionReport } from './session-report.js';
import type { StrategyName } from './strategy-tally.js';
import { DEFAULT_LAYOUT, type TextLayout, wrapLines } from './text-layout.js';
import type { WholeSessionReport } from './whole-session-figures.js';

export { runwayCell } from './render-strategy-table.js';

/** How each strategy is named on screen. */
export const STRATEGY_LABELS: Record<StrategyName, string> = {
  recorded: 'as recorded',
  rescue: 'ctxshed rescue',
  shed: 'ctxshed shed',
  perRequest: 'per-request',
  clearToolUses: 'clear_tool_uses',
};

/** Renders every session's tables, then the sessions' total, laid out to `layout`. */
export function renderTable(reports: readonly (SessionReport | WholeSessionReport)[], layout: TextLayout = DEFAULT_LAYOUT): string {
  const lines = [...reports.flatMap((r) => renderSession(r, layout)), ...totalsLines(reports, layout)];
  return `${wrapLines(lines, layout.width).join('\n')}\n`;
}

/** One session: its head, the whole-session table, the first-compaction table, then the notes under it. */
function renderSession(report: SessionReport | WholeSessionReport, layout: TextLayout): string[] {
  const whole = 'wholeSession' in report ? ['', ...wholeSessionIntro(report).map((l) => `  ${l}`), ...wholeSessionTable(report, STRATEGY_LABELS, layout)] : [];
  return [
    ...headLines(report),
    ...whole,
    '',
    "  up to the first compaction (the earlier basis, kept to compare; '~' runways are estimates past the data):",
    ...strategyTableLines(report, STRATEGY_LABELS, layout),
    ...footLines(report),
    '',
  ];
}

/** The session's file, size, compaction point, cost basis and calibration. */
function headLines(report: SessionReport): string[] {
  const c = report.calibration;
  const unknown = unknownModelsLine(report.unpricedModels);
  return [
    `${report.file}`,
    `  ${report.requests} requests in ${report.conversations} conversation(s); window ${report.window.toLocaleString('en-US')} tokens` +
      `${report.tokenThreshold === undefined ? '' : ` (epochs may latch from ${report.tokenThreshold.toLocaleString('en-US')} tokens)`}; ` +
      `tokens estimated from bytes at ${c.tokensPerByte.toFixed(3)} a byte (fitted on the session's recorded usage)`,
    `  ${compactionLine(report)}`,
    `  cost: ${report.costBasis.basis}: ${report.costBasis.replayedRequests} of ${report.costBasis.replayedRequests + report.costBasis.afterCompactionRequests} requests priced; ` +
      'a prompt over the window is refused (not billed), rescue and shed retry it once as the proxy does',
    `  calibration (model vs recorded usage): cache read ${signed(c.cacheReadError)}, cache write ${signed(c.cacheWriteError)}, ` +
      `context ${signed(c.contextError)} (per request ±${pct(c.meanAbsRequestError, 1)}); these requests' recorded usage billed ${dollarCell(c.recorded.costUsd, report.unpricedModels)} ` +
      `(what was paid for the whole session is below), peak ${pct(c.recorded.peakFullness)}`,
    ...missLines(c.misses),
    ...(report.skippedLines === undefined || report.skippedLines.lines === 0
      ? []
      : [`  skipped ${report.skippedLines.lines} line(s) that are not JSON records (the first: line ${report.skippedLines.firstLine ?? '?'})`]),
    ...(report.priceAs === undefined ? [] : [`  priced as ${report.priceAs} (--price-as), whatever model each request ran on`]),
    ...(unknown === undefined ? [] : [`  ${unknown}`]),
  ];
}

/** Where the client compacts, where that came from, and the recorded compaction. */
export function compactionLine(report: SessionReport): string {
  const p = report.compactionPoint;
  const below = p.autoCompactWindow === undefined ? 'it' : `the ${p.autoCompactWindow.toLocaleString('en-US')} of CLAUDE_CODE_AUTO_COMPACT_WINDOW`;
  const at = `compaction point ${p.tokens.toLocaleString('en-US')} tokens (${pct(report.autoCompactAt)} of the window, ${p.marginTokens.toLocaleString('en-US')} below ${below})`;
  const from =
    p.source === 'transcript'
      ? "the margin of the transcript's auto compact_boundary"
      : "assumed: Claude Code's rule, the window less 20,000 output tokens less a 13,000 buffer";
  const rec = p.recorded;
  const recorded =
    rec === undefined
      ? 'the session never compacted'
      : `recorded: ${rec.trigger} at ${rec.preTokens === undefined ? 'an unknown count' : rec.preTokens.toLocaleString('en-US')} tokens`;
  const estimate =
    report.runwayEstimateTokens === undefined
      ? ''
      : `; '~' runway estimates run to ${report.runwayEstimateTokens.toLocaleString('en-US')} tokens, the recorded conversation's last count, where the client compacted`;
  return `${at}, from ${from}; ${recorded}${estimate}`;
}

function pct(x: number, digits = 0): string {
  return `${(x * 100).toFixed(digits)}%`;
}

function signed(x: number): string {
  return `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
}
