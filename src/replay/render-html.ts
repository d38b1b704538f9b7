/**
 * One self-contained page: per session, a chart of fullness and one of cumulative cost per
 * strategy over the session's main-thread requests, epochs marked. Inline SVG, no scripts, no
 * external resources. Pure.
 */
import type { SessionReport } from './replay-session.js';
import type { ShedEpochFigure } from './shed-epochs.js';
import { dollarCell, unknownModelsLine } from './cost-cell.js';
import { wholeSessionHtml } from './render-whole-session.js';
import type { WholeSessionReport } from './whole-session-figures.js';
import { compactionLine, runwayCell, STRATEGY_LABELS } from './render-table.js';
import { STRATEGIES, type StrategyName } from './strategy-tally.js';

const COLORS: Record<StrategyName, string> = { recorded: '#555555', rescue: '#1f77b4', shed: '#9467bd', perRequest: '#d62728', clearToolUses: '#2ca02c' };
const W = 1000;
const H = 260;
const PAD = { left: 60, right: 20, top: 20, bottom: 30 };

/** The page for these reports. */
export function renderHtml(reports: readonly SessionReport[]): string {
  const sections = reports.map(renderSession).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>ctxshed replay</title>
<style>body{font-family:system-ui,sans-serif;margin:24px;color:#222}table{border-collapse:collapse;margin:8px 0}td,th{padding:3px 10px;text-align:right;border-bottom:1px solid #ddd}td:first-child,th:first-child{text-align:left}.legend span{margin-right:18px}svg{display:block;margin:6px 0 18px}</style>
</head><body>
<h1>ctxshed replay</h1>
${sections}
</body></html>
`;
}

function renderSession(report: SessionReport): string {
  const c = report.calibration;
  const legend = STRATEGIES.map((s) => `<span style="color:${COLORS[s]}">&#9632; ${STRATEGY_LABELS[s]}</span>`).join('');
  const rows = STRATEGIES.map((s) => {
    const x = report.strategies[s];
    return `<tr><td>${STRATEGY_LABELS[s]}</td><td>${pct(x.peakFullness)}</td><td>${x.atCompaction.length === 0 ? '-' : x.atCompaction.map(pct).join(' ')}</td><td>${pct(x.finalFullness)}</td><td>${runwayCell(x.runway)}</td><td>${x.runway.ratio === null ? '-' : `${x.runway.ratio.toFixed(2)}x`}</td><td>${x.refused}</td><td>${x.rescued}</td><td>${x.cacheReadTokens.toLocaleString('en-US')}</td><td>${x.cacheWriteTokens.toLocaleString('en-US')}</td><td>${pct(x.cacheHitRatio)}</td><td>${escapeHtml(dollarCell(x.costUsd, report.unpricedModels))}</td><td>${x.epochs}</td></tr>`;
  }).join('');
  const marks = { rescue: report.strategies.rescue.series.epochAt, shed: report.strategies.shed.series.epochAt };
  const fullness = chart(
    'fullness',
    'fullness of the window',
    STRATEGIES.map((s) => report.strategies[s].series.fullness),
    1,
    (v) => pct(v),
    marks,
    report.autoCompactAt,
  );
  const maxCost = Math.max(0.01, ...STRATEGIES.map((s) => report.strategies[s].series.cumulativeCostUsd.at(-1) ?? 0));
  const cost = chart(
    'cost',
    'cumulative cost (USD)',
    STRATEGIES.map((s) => report.strategies[s].series.cumulativeCostUsd),
    maxCost,
    (v) => `$${v.toFixed(2)}`,
    marks,
    undefined,
  );
  return `<section>
<h2>${escapeHtml(report.file)}</h2>
<p>${escapeHtml(compactionLine(report))}; cost ${escapeHtml(report.costBasis.basis)}.</p>${unknownModelsLine(report.unpricedModels) === undefined ? '' : `<p class="warn">${escapeHtml(unknownModelsLine(report.unpricedModels) ?? '')}</p>`}
<p>${report.requests} requests; calibration: cache read ${signed(c.cacheReadError)}, cache write ${signed(c.cacheWriteError)}, context ${signed(c.contextError)}; dashed lines: rescue epochs (blue) and shed epochs (purple).</p>
<p class="legend">${legend}</p>
${'wholeSession' in report ? wholeSessionHtml(report as WholeSessionReport, STRATEGY_LABELS, escapeHtml) : ''}
${fullness}
${cost}
<table><tr><th>strategy</th><th>peak</th><th>at compaction</th><th>final</th><th>runway</th><th>x recorded</th><th>refused</th><th>rescued</th><th>cache read</th><th>cache write</th><th>hit</th><th>cost</th><th>epochs</th></tr>${rows}</table>
${shedTable(report.shedEpochs)}
${heldLine(report)}
</section>`;
}

/** Shed mode's epochs, one row each, every figure with its basis: never a session sum. */
function shedTable(epochs: readonly ShedEpochFigure[]): string {
  if (epochs.length === 0) return '<p>Shed epochs: none latched.</p>';
  const rows = epochs
    .map((e) => {
      const t = e.perLaterTurn;
      const gate =
        e.gate === undefined
          ? '-'
          : e.gate.forcedAt === undefined
            ? `${e.gate.breakEvenTurns ?? 'never'} &le; ${e.gate.expectedRemainingTurns}`
            : `${e.gate.breakEvenTurns ?? 'never'} &gt; ${e.gate.expectedRemainingTurns}, forced at ${pct(e.gate.forcedAt)}`;
      return (
        `<tr><td>${escapeHtml(e.conversation.slice(e.conversation.lastIndexOf('/') + 1))} #${e.epoch}</td><td>${e.request + 1}</td><td>${pct(e.fullness)}</td><td>${e.span.first}..${e.span.last}</td><td>${(e.span.bytes / 1024).toFixed(0)} KiB</td><td>${gate}</td><td>${e.turnsAfter}</td>` +
        `<td>${t.shedTokens.toLocaleString('en-US')} (${t.warmTokens.toLocaleString('en-US')} warm)</td><td>$${t.usd.toFixed(4)} <small>${t.basis}</small></td><td>$${e.rewrite.usd.toFixed(4)} <small>${e.rewrite.basis}</small></td><td>${e.payback.turnsNeeded ?? 'never'} (${e.payback.paidBack ? 'paid back' : 'not paid back'})</td></tr>`
      );
    })
    .join('');
  return `<p>Shed epochs, each on its own (never summed, never set against cache reads):</p>
<table class="shed-epochs"><tr><th>epoch</th><th>request</th><th>fullness</th><th>messages</th><th>span</th><th>break-even &le; expected turns</th><th>turns after</th><th>tokens not sent per later turn</th><th>worth per later turn</th><th>re-write at the latch</th><th>turns to pay back</th></tr>${rows}</table>`;
}

/** Where shed latched nothing over the threshold, and why; its refaults. */
function heldLine(report: SessionReport): string {
  const held = Object.entries(report.shedHeld.requests).map(([why, n]) => `${escapeHtml(why)} &times;${n}`);
  const r = report.shedRefaults;
  const refaults =
    r.rate === null ? '' : ` Shed refaults: ${r.blocksRefaulted} of ${r.blocksElided} shed tool results were files the session read again later.`;
  return `<p class="shed-held">Shed held back on requests over the threshold: ${held.length === 0 ? 'none' : held.join(', ')}.${refaults}</p>`;
}

function chart(
  kind: string,
  title: string,
  series: readonly (readonly number[])[],
  max: number,
  label: (v: number) => string,
  epochs: { readonly rescue: readonly number[]; readonly shed: readonly number[] },
  limit: number | undefined,
): string {
  const n = Math.max(2, ...series.map((s) => s.length));
  const x = (i: number): number => PAD.left + (i / (n - 1)) * (W - PAD.left - PAD.right);
  const y = (v: number): number => H - PAD.bottom - (Math.min(v, max) / max) * (H - PAD.top - PAD.bottom);
  const lines = series
    .map((values, k) => {
      const name = STRATEGIES[k] ?? 'recorded';
      const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
      return `<polyline class="strategy" data-strategy="${name}" fill="none" stroke="${COLORS[name]}" stroke-width="2" points="${points}"/>`;
    })
    .join('');
  const marks = (['rescue', 'shed'] as const)
    .flatMap((s) =>
      epochs[s].map(
        (i) =>
          `<line class="epoch" data-strategy="${s}" x1="${x(i).toFixed(1)}" x2="${x(i).toFixed(1)}" y1="${PAD.top}" y2="${H - PAD.bottom}" stroke="${COLORS[s]}" stroke-dasharray="4 3"/>`,
      ),
    )
    .join('');
  const ticks = [0, 0.25, 0.5, 0.75, 1]
    .map(
      (f) =>
        `<text x="${PAD.left - 6}" y="${(y(f * max) + 4).toFixed(1)}" text-anchor="end" font-size="11">${label(f * max)}</text><line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(f * max).toFixed(1)}" y2="${y(f * max).toFixed(1)}" stroke="#eee"/>`,
    )
    .join('');
  const limitLine =
    limit === undefined
      ? ''
      : `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(limit).toFixed(1)}" y2="${y(limit).toFixed(1)}" stroke="#999" stroke-dasharray="2 2"/><text x="${W - PAD.right}" y="${(y(limit) - 4).toFixed(1)}" text-anchor="end" font-size="11" fill="#777">client auto-compaction</text>`;
  return `<svg class="chart" data-chart="${kind}" xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="${title}">
<text x="${PAD.left}" y="14" font-size="13">${title}</text>${ticks}${limitLine}${marks}${lines}
<text x="${(W / 2).toFixed(0)}" y="${H - 6}" text-anchor="middle" font-size="11">main-thread request</text></svg>`;
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
