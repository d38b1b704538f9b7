/**
 * The whole-session table (whole-session-figures.ts), the replay's default basis: each strategy
 * over the whole session against the recorded session with its compaction and against a client
 * that never compacted, both modelled as the strategies are (like for like); above it, what was
 * paid (the recorded usage billed) and the modelled baseline's ratio to it. A runway is measured
 * where the data reaches, a floor (`>=`) where it ran out; a cost with refusals is marked, for the
 * API never billed what it refused. Pure.
 */
import { costCell, dollarCell } from './cost-cell.js';
import { htmlTable } from './html-table.js';
import type { RefaultFigure } from './replay-refaults.js';
import { STRATEGIES, type StrategyName } from './strategy-tally.js';
import { fitTable, legendLine, type TextLayout } from './text-layout.js';
import type { WholeSessionFigure, WholeSessionReport } from './whole-session-figures.js';

/** Column names, in plain words. */
export const WHOLE_SESSION_HEADER = [
  'strategy',
  'runway (requests)',
  'runway vs recorded',
  'cost $',
  'vs recorded',
  'vs never compacting',
  'cache writes vs recorded',
  'refused',
] as const;

/** The compact form: strategy, runway, cost, both vs, refused, under shorter names. */
const WHOLE_SESSION_COMPACT = { columns: [0, 1, 3, 4, 5, 7], header: ['strategy', 'runway', 'cost $', 'vs recorded', 'vs never', 'refused'] };

/** The table's lines laid out to `layout` (full where it fits), its legend under it. */
export function wholeSessionTable(report: WholeSessionReport, labels: Record<StrategyName, string>, layout: TextLayout): string[] {
  const { lines, columns } = fitTable({ header: WHOLE_SESSION_HEADER, rows: wholeSessionRows(report, labels) }, WHOLE_SESSION_COMPACT, layout);
  return [...lines, legendLine(MEANINGS, columns), ...refaultLines(report, labels)];
}

/** The rows' cells, one row per strategy. */
export function wholeSessionRows(report: WholeSessionReport, labels: Record<StrategyName, string>): string[][] {
  return STRATEGIES.map((name) => {
    const w: WholeSessionFigure = report.strategies[name].wholeSession;
    return [
      name === 'recorded' ? 'never compacting' : labels[name],
      `${w.runway.measured ? '' : '>='}${w.runway.requests}`,
      w.runway.ratio === null ? '-' : `${w.runway.measured ? '' : '>='}${w.runway.ratio.toFixed(2)}x`,
      `${costCell(w.costUsd, w.unpricedModels)}${w.refused > 0 ? '!' : ''}`,
      vsCell(w.vs.recordedWithCompaction, w.refused),
      name === 'recorded' ? 'baseline' : vsCell(w.vs.recordedWithoutCompaction, w.refused),
      w.cacheWriteRatio === null ? '-' : `${w.cacheWriteRatio.toFixed(2)}x`,
      String(w.refused),
    ];
  });
}

/** The lines above the table: what it is, what was paid, and the two modelled baselines in dollars. */
export function wholeSessionIntro(report: WholeSessionReport): string[] {
  const ws = report.wholeSession;
  const { paid, recordedWithCompaction: modelled, recordedWithoutCompaction: never } = ws.baselines;
  const estimate =
    ws.compactionsStitched === 0
      ? 'the session never compacted'
      : `${ws.compactionsStitched} compaction(s) stitched over; the prompts of ${ws.estimatedRequests} request(s) past it are estimates (from bytes)`;
  return [
    `whole session (the default basis: what a user pays over the session): ${estimate}`,
    paidLine(paid),
    `baselines, modelled as the strategies are: the recorded session with its compaction ${dollarCell(modelled.costUsd, modelled.unpricedModels)}` +
      `${modelled.ratioToPaid === null ? '' : ` (${modelled.ratioToPaid.toFixed(2)}x paid)`}, the compaction call ${dollarCell(modelled.compactionCalls.costUsd, modelled.unpricedModels)} from its own record, ` +
      `${modelled.cacheWriteTokens.toLocaleString('en-US')} cache-write tokens; never compacting ${dollarCell(never.costUsd, never.unpricedModels)}` +
      `${never.refused > 0 ? ` (${never.refused} prompt(s) over the window refused, not billed)` : ''}`,
  ];
}

/** What was paid, and what it is made of. */
export function paidLine(paid: WholeSessionReport['wholeSession']['baselines']['paid']): string {
  const { main, subagents, compactionCalls } = paid.parts;
  const unpriced = paid.unpricedRequests === 0 ? '' : `; ${paid.unpricedRequests} request(s) on a model without a price not billed`;
  return (
    `paid ${dollarCell(paid.costUsd, paid.unpricedModels)}: the recorded usage of its ${paid.requests} request(s) at the price table ` +
    `(main thread ${dollarCell(main.costUsd, [])}, ${subagents.requests} subagent request(s) ${dollarCell(subagents.costUsd, [])}, ` +
    `${compactionCalls.requests} compaction call(s) ${dollarCell(compactionCalls.costUsd, [])}${unpriced})`
  );
}

/** Each strategy's refaults over the whole session: the blocks it took out that the session read back later. */
export function refaultLines(report: WholeSessionReport, labels: Record<StrategyName, string>): string[] {
  const parts = STRATEGIES.flatMap((name) => {
    const r: RefaultFigure | null = report.strategies[name].wholeSession.refaults;
    return r === null ? [] : [`${labels[name]} ${r.blocksRefaulted} of ${r.blocksElided}${r.rate === null ? '' : ` (${(r.rate * 100).toFixed(1)}%)`}`];
  });
  return [`  read back later (refaults over the whole session, blocks): ${parts.join(', ')}`];
}

/** The table as HTML (cells escaped by `escapeText`), its intro and legend around it. */
export function wholeSessionHtml(report: WholeSessionReport, labels: Record<StrategyName, string>, escapeText: (s: string) => string): string {
  const table = htmlTable({
    header: WHOLE_SESSION_HEADER.map(escapeText),
    rows: wholeSessionRows(report, labels).map((r) => r.map(escapeText)),
    narrow: WHOLE_SESSION_COMPACT.columns,
  });
  const intro = wholeSessionIntro(report)
    .map((l) => `<p>${escapeText(l)}</p>`)
    .join('');
  const refaults = refaultLines(report, labels)
    .map((l) => `<p>${escapeText(l.trim())}</p>`)
    .join('');
  return `<h3>Whole session</h3>${intro}${table}<p class="legend-note">${escapeText(WHOLE_SESSION_LEGEND)}</p>${refaults}<h3>Up to the first compaction (the earlier basis)</h3>`;
}

/** What each column means (the terminal's legend says those shown). */
const MEANINGS: Readonly<Record<number, string>> = {
  1: "runway: requests answered before the client would compact, measured on the data ('>=': the data ran out first, at least that many)",
  2: "runway vs recorded: over the recorded session's runway",
  4: "vs recorded: the cost above (+) or below (-) the recorded session with its compaction, modelled as the strategies are (like for like; its ratio to what was paid is above); '!': some prompts were refused as too long and never billed, so the cost is not comparable",
  5: 'vs never (compacting): the same against the whole history sent whole',
  6: "cache writes vs recorded: cache-write tokens over the modelled recorded session's",
};

/** The legend under the page's table: every column's meaning. */
export const WHOLE_SESSION_LEGEND = Object.values(MEANINGS).join('; ');

function vsCell(fraction: number | null, refused: number): string {
  if (fraction === null) return '-';
  const pct = `${fraction >= 0 ? '+' : ''}${(fraction * 100).toFixed(1)}%`;
  return refused > 0 ? `${pct}!` : pct;
}
