/**
 * One self-contained page: a summary first (what was replayed, each strategy's headline cost and
 * runway, estimates marked), then per session its tables, a chart of fullness and one of
 * cumulative cost per strategy over the main-thread requests, epochs marked (render-chart.ts).
 * Inline SVG that scales to the page, no scripts, no external resources. Pure.
 */
import type { SessionReport } from './replay-session.js';
import type { ShedEpochFigure } from './shed-epochs.js';
import { unknownModelsLine } from './cost-cell.js';
import { wholeSessionHtml } from './render-whole-session.js';
import type { WholeSessionReport } from './whole-session-figures.js';
import { strategyTable, STRATEGY_TABLE_LEGEND, STRATEGY_TABLE_NARROW } from './render-strategy-table.js';
import { compactionLine, STRATEGY_LABELS } from './render-table.js';
import { STRATEGIES, type StrategyName } from './strategy-tally.js';
import { renderChart } from './render-chart.js';
import { summaryHtml } from './render-html-summary.js';
import { LINE_STYLES, lineSample } from './chart-styles.js';
import { htmlTable, TABLE_CSS } from './html-table.js';

/** The page for these reports. */
export function renderHtml(reports: readonly SessionReport[]): string {
  const sections = reports.map(renderSession).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>ctxshed replay</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;margin:24px auto;padding:0 16px;max-width:1360px;color:#222;line-height:1.4}h1,h2,h3,p{overflow-wrap:anywhere}${TABLE_CSS}.legend span{margin-right:18px;display:inline-block;white-space:nowrap}.legend svg.sample{vertical-align:middle;margin-right:4px}svg.chart{display:block;width:100%;max-width:1100px;height:auto;margin:6px 0 18px}.summary{background:#f6f8fa;border:1px solid #e1e4e8;border-radius:6px;padding:4px 16px 12px}.legend-note{font-size:90%;color:#555}section{margin-bottom:32px}</style>
</head><body>
<h1>ctxshed replay</h1>
${reports.length === 0 ? '' : summaryHtml(reports, STRATEGY_LABELS, escapeHtml)}
${sections}
</body></html>
`;
}

function renderSession(report: SessionReport): string {
  const c = report.calibration;
  const legend = STRATEGIES.map((s) => `<span style="color:${LINE_STYLES[s].color}">${lineSample(LINE_STYLES[s])}${STRATEGY_LABELS[s]}</span>`).join('');
  const table = strategyTable(report, STRATEGY_LABELS);
  const lines = (values: (s: StrategyName) => readonly number[]) =>
    STRATEGIES.map((s) => ({ key: s, label: STRATEGY_LABELS[s], ...LINE_STYLES[s], values: values(s) }));
  const chartMarks = { rescue: report.strategies.rescue.series.epochAt, shed: report.strategies.shed.series.epochAt };
  const fullness = renderChart(
    {
      kind: 'fullness',
      title: 'fullness of the window',
      lines: lines((s) => report.strategies[s].series.fullness),
      yMax: 1,
      yLabel: (v) => pct(v),
      marks: chartMarks,
      markColor: (k) => LINE_STYLES[k as StrategyName].color,
      limit: { value: report.autoCompactAt, label: `client auto-compaction (${pct(report.autoCompactAt)})` },
    },
    escapeHtml,
  );
  const maxCost = Math.max(0.01, ...STRATEGIES.map((s) => report.strategies[s].series.cumulativeCostUsd.at(-1) ?? 0));
  const cost = renderChart(
    {
      kind: 'cost',
      title: 'cumulative cost (USD), up to the first compaction',
      lines: lines((s) => report.strategies[s].series.cumulativeCostUsd),
      yMax: maxCost,
      yLabel: dollarTick,
      marks: chartMarks,
      markColor: (k) => LINE_STYLES[k as StrategyName].color,
    },
    escapeHtml,
  );
  return `<section>
<h2>${escapeHtml(report.file)}</h2>
<p>${escapeHtml(compactionLine(report))}; cost ${escapeHtml(report.costBasis.basis)}.</p>${unknownModelsLine(report.unpricedModels) === undefined ? '' : `<p class="warn">${escapeHtml(unknownModelsLine(report.unpricedModels) ?? '')}</p>`}
<p>${report.requests} requests; calibration: cache read ${signed(c.cacheReadError)}, cache write ${signed(c.cacheWriteError)}, context ${signed(c.contextError)}; thin vertical dashes: rescue epochs (blue) and shed epochs (purple).</p>
<p class="legend">${legend}</p>
${'wholeSession' in report ? wholeSessionHtml(report as WholeSessionReport, STRATEGY_LABELS, escapeHtml) : ''}
${fullness}
${cost}
${htmlTable({ header: table.header.map(escapeHtml), rows: table.rows.map((r) => r.map(escapeHtml)), narrow: STRATEGY_TABLE_NARROW })}<p class="legend-note">${escapeHtml(STRATEGY_TABLE_LEGEND)}</p>
${shedTable(report.shedEpochs)}
${heldLine(report)}
</section>`;
}

/** Shed mode's epochs, one row each, every figure with its basis: never a session sum. */
function shedTable(epochs: readonly ShedEpochFigure[]): string {
  if (epochs.length === 0) return '<p>Shed epochs: none latched.</p>';
  const rows = epochs.map((e) => {
    const t = e.perLaterTurn;
    const gate =
      e.gate === undefined
        ? '-'
        : e.gate.forcedAt === undefined
          ? `${e.gate.breakEvenTurns ?? 'never'} &le; ${e.gate.expectedRemainingTurns}`
          : `${e.gate.breakEvenTurns ?? 'never'} &gt; ${e.gate.expectedRemainingTurns}, forced at ${pct(e.gate.forcedAt)}`;
    return [
      `${escapeHtml(conversationName(e.conversation))} #${e.epoch}`,
      String(e.request + 1),
      pct(e.fullness),
      `${e.span.first}..${e.span.last}`,
      `${(e.span.bytes / 1024).toFixed(0)} KiB`,
      gate,
      String(e.turnsAfter),
      `${t.shedTokens.toLocaleString('en-US')} (${t.warmTokens.toLocaleString('en-US')} warm)`,
      `$${t.usd.toFixed(4)} <small>${t.basis}</small>`,
      `$${e.rewrite.usd.toFixed(4)} <small>${e.rewrite.basis}</small>`,
      `${e.payback.turnsNeeded ?? 'never'} (${e.payback.paidBack ? 'paid back' : 'not paid back'})`,
    ];
  });
  const header = [
    'epoch',
    'request',
    'fullness',
    'messages',
    'span',
    'break-even &le; expected turns',
    'turns after',
    'tokens not sent per later turn',
    'worth per later turn',
    're-write at the latch',
    'turns to pay back',
  ];
  return `<p>Shed epochs, each on its own (never summed, never set against cache reads):</p>
${htmlTable({ header, rows, narrow: [0, 1, 2, 4, 8, 9, 10], className: 'shed-epochs' })}`;
}

/** A conversation's name on the page: its file's first eight characters (a session id's own), then its number there. */
function conversationName(id: string): string {
  const file = id.slice(id.lastIndexOf('/') + 1);
  const [name = file, n] = file.split('#');
  const base = name.replace(/\.jsonl$/, '');
  return `${base.length > 14 ? base.slice(0, 8) : base}${n === undefined ? '' : `#${n}`}`;
}

/** Where shed latched nothing over the threshold, and why; its refaults. */
function heldLine(report: SessionReport): string {
  const held = Object.entries(report.shedHeld.requests).map(([why, n]) => `${escapeHtml(why)} &times;${n}`);
  const r = report.shedRefaults;
  const refaults =
    r.rate === null ? '' : ` Shed refaults: ${r.blocksRefaulted} of ${r.blocksElided} shed tool results were files the session read again later.`;
  return `<p class="shed-held">Shed held back on requests over the threshold: ${held.length === 0 ? 'none' : held.join(', ')}.${refaults}</p>`;
}

/** A dollar amount at the ticks' precision: whole dollars on a step of $1 or more ($5, $10), else cents ($0.25, $1.50). */
function dollarTick(v: number, step: number): string {
  return `$${v.toFixed(step >= 1 ? 0 : Math.max(2, Math.ceil(-Math.log10(step))))}`;
}

function pct(x: number): string {
  return `${(x * 100).toFixed(0)}%`;
}

function signed(x: number): string {
  return `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
