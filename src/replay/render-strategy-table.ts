/**
 * The table of a replay up to the first compaction (render-table.ts): one row per strategy, in
 * full where it fits the width, else in its compact columns, a sparkline of fullness in what room
 * is left, and its legend. Pure.
 */
import { costCell } from './cost-cell.js';
import type { SessionReport } from './session-report.js';
import { sparkline } from './sparkline.js';
import { STRATEGIES, type StrategyName, type StrategySummary } from './strategy-tally.js';
import { fitTable, legendLine, widest, type TextLayout, type TextTable } from './text-layout.js';
import type { Runway } from './runway.js';

/** The widest sparkline, and the narrowest worth drawing. */
const SPARK_MAX = 40;
const SPARK_MIN = 8;

const HEADER = [
  'strategy',
  'peak',
  'at compaction',
  'last',
  'runway',
  'vs recorded',
  'refused',
  'retried',
  'cache read',
  'cache write',
  'not cached',
  'hit rate',
  'cost $',
  'epochs',
  'KiB kept out',
  'thinking kept/removed (last)',
];

/** The compact form's columns: strategy, peak, last, runway, vs recorded, refused, cost, epochs. */
const COMPACT = { columns: [0, 1, 3, 4, 5, 6, 12, 13] };

/** What each column means, in plain words (the legend says those shown). */
const MEANINGS: Readonly<Record<number, string>> = {
  1: "peak, last: fullness of the fullest and of the last answered main-thread request (a prompt refused as too long is counted under 'refused', never here)",
  2: "at compaction: fullness where the recorded session compacted ('*': that request was refused)",
  4: "runway: requests answered before the client's first compaction ('*' ended by a refusal; '~' an estimate past the transcript at its growth per request, with no further epoch; '>=' never reached)",
  5: 'vs recorded: the runway over the recorded one',
  7: "retried: refused as too long, then answered on ctxshed's retry",
  8: 'cache read, cache write, not cached: prompt tokens by how they were billed',
  11: 'hit rate: the share read from the cache',
  12: "cost $: '!' some prompts were refused and never billed, so the cost is not comparable",
  13: 'epochs: epochs latched (per-request, clear_tool_uses: requests whose set of stubs changed, each a cache re-write)',
  14: 'KiB kept out: tool-result text kept out of the window (shed: per epoch, below)',
  15: "thinking kept/removed: thinking blocks the main-thread requests sent, and took out of the client's body, in all and (in the last request)",
};

/** The columns the page shows on a narrow window: the compact form's. */
export const STRATEGY_TABLE_NARROW: readonly number[] = COMPACT.columns;

/** Every column's meaning, for the page (which shows every column). */
export const STRATEGY_TABLE_LEGEND = Object.values(MEANINGS).join('; ');

/** The table's header and cells, one row per strategy (the page shows them too). */
export function strategyTable(report: SessionReport, labels: Record<StrategyName, string>): TextTable {
  return { header: HEADER, rows: STRATEGIES.map((name) => strategyRow(report, name, labels[name])) };
}

/** The table's lines, laid out to `layout`, the legend under it. */
export function strategyTableLines(report: SessionReport, labels: Record<StrategyName, string>, layout: TextLayout): string[] {
  const table = strategyTable(report, labels);
  const { lines, columns } = fitTable(table, COMPACT, layout);
  return [...withSparklines(lines, report, layout.width), legendLine(MEANINGS, columns)];
}

/** One strategy's cells. */
function strategyRow(report: SessionReport, name: StrategyName, label: string): string[] {
  const s: StrategySummary = report.strategies[name];
  return [
    label,
    pct(s.peakFullness),
    s.atCompaction.length === 0 ? '-' : s.atCompaction.map((f, i) => `${pct(f)}${s.atCompactionRefused[i] === true ? '*' : ''}`).join(' '),
    pct(s.finalFullness),
    runwayCell(s.runway),
    s.runway.ratio === null ? '-' : `${s.runway.end === 'extrapolated' ? '~' : ''}${s.runway.ratio.toFixed(2)}x`,
    String(s.refused),
    String(s.rescued),
    s.cacheReadTokens.toLocaleString('en-US'),
    s.cacheWriteTokens.toLocaleString('en-US'),
    s.uncachedTokens.toLocaleString('en-US'),
    pct(s.cacheHitRatio),
    `${costCell(s.costUsd, report.unpricedModels)}${s.refused > 0 ? '!' : ''}`,
    String(s.epochs),
    s.bytesShed === null ? 'per epoch' : (s.bytesShed / 1024).toFixed(0),
    `${s.thinking.sent}/${s.thinking.removed} (${s.thinking.finalSent}/${s.thinking.finalRemoved})`,
  ];
}

/** A fullness sparkline after each row, as wide as the room left allows (none under `SPARK_MIN`). */
function withSparklines(lines: readonly string[], report: SessionReport, width: number): string[] {
  const room = Math.min(SPARK_MAX, width - widest(lines) - 2);
  if (room < SPARK_MIN) return [...lines];
  const [head, ...rows] = lines;
  const pad = widest(lines);
  return [
    `${(head ?? '').padEnd(pad)}  fullness per request`.slice(0, width).trimEnd(),
    ...rows.map((row, i) => `${row.padEnd(pad)}  ${sparkline(report.strategies[STRATEGIES[i] ?? 'recorded'].series.fullness, room)}`),
  ];
}

/** The runway's requests, marked by how it ended. */
export function runwayCell(r: Runway): string {
  switch (r.end) {
    case 'compaction_point':
    case 'recorded_compaction':
      return String(r.requests);
    case 'refusal':
      return `${r.requests}*`;
    case 'extrapolated':
      return `~${r.requests}`;
    case 'not_reached':
      return `>=${r.requests}`;
  }
}

function pct(x: number): string {
  return `${(x * 100).toFixed(0)}%`;
}
