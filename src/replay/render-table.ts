/** The terminal table of a replay. Pure: reports in, text out. */
import { GATE_CEILING } from '../core/index.js';
import type { MissTally, SessionReport } from './replay-session.js';
import type { ShedEpochFigure } from './shed-epochs.js';
import { costCell, dollarCell, unknownModelsLine } from './cost-cell.js';
import { sparkline } from './sparkline.js';
import { WHOLE_SESSION_HEADER, WHOLE_SESSION_LEGEND, wholeSessionIntro, wholeSessionRows } from './render-whole-session.js';
import type { WholeSessionReport } from './whole-session-figures.js';
import type { Runway } from './runway.js';
import { workingSetNote } from './working-set-tally.js';
import { STRATEGIES, type StrategyName } from './strategy-tally.js';

/** How each strategy is named on screen. */
export const STRATEGY_LABELS: Record<StrategyName, string> = {
  recorded: 'as recorded',
  rescue: 'ctxshed rescue',
  shed: 'ctxshed shed',
  perRequest: 'per-request',
  clearToolUses: 'clear_tool_uses',
};

const SPARK_WIDTH = 40;

/** Renders every session's table. */
export function renderTable(reports: readonly (SessionReport | WholeSessionReport)[]): string {
  return reports.map(renderSession).join('\n');
}

/** One session: its head, the whole-session table, the first-compaction table, then the notes under it. */
function renderSession(report: SessionReport | WholeSessionReport): string {
  const whole = 'wholeSession' in report ? wholeSessionBlock(report) : [];
  return [
    ...headLines(report),
    ...whole,
    '',
    "  up to the first compaction (the earlier basis, kept to compare; '~' runways are estimates past the data):",
    ...strategyTable(report),
    ...footLines(report),
    '',
  ].join('\n');
}

/** The whole-session table with its intro and legend. */
function wholeSessionBlock(report: WholeSessionReport): string[] {
  const header = [...WHOLE_SESSION_HEADER];
  const rows = wholeSessionRows(report, STRATEGY_LABELS);
  return ['', ...wholeSessionIntro(report).map((l) => `  ${l}`), ...alignRows(header, rows), `  ${WHOLE_SESSION_LEGEND}`];
}

/** Columns aligned: the first left, the rest right. */
function alignRows(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const fmt = (cells: readonly string[]): string =>
    `  ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ')}`.trimEnd();
  return [fmt(header), ...rows.map(fmt)];
}

/** The session's file, size, compaction point, cost basis and calibration. */
function headLines(report: SessionReport): string[] {
  const c = report.calibration;
  const unknown = unknownModelsLine(report.unpricedModels);
  return [
    `${report.file}`,
    `  ${report.requests} requests in ${report.conversations} conversation(s); window ${report.window.toLocaleString('en-US')} tokens` +
      `${report.tokenThreshold === undefined ? '' : ` (epochs may latch from ${report.tokenThreshold.toLocaleString('en-US')} tokens)`}; ` +
      `${c.tokensPerByte.toFixed(3)} tokens/byte fitted`,
    `  ${compactionLine(report)}`,
    `  cost: ${report.costBasis.basis}: ${report.costBasis.replayedRequests} of ${report.costBasis.replayedRequests + report.costBasis.afterCompactionRequests} requests priced; ` +
      'a prompt over the window is refused (not billed), rescue and shed retry it once as the proxy does',
    `  calibration (model vs recorded usage): cache read ${signed(c.cacheReadError)}, cache write ${signed(c.cacheWriteError)}, ` +
      `context ${signed(c.contextError)} (per request ±${pct(c.meanAbsRequestError, 1)}); recorded bill ${dollarCell(c.recorded.costUsd, report.unpricedModels)}, peak ${pct(c.recorded.peakFullness)}`,
    ...missLines(c.misses),
    ...(report.skippedLines === undefined || report.skippedLines.lines === 0
      ? []
      : [`  skipped ${report.skippedLines.lines} line(s) that are not JSON records (the first: line ${report.skippedLines.firstLine ?? '?'})`]),
    ...(report.priceAs === undefined ? [] : [`  priced as ${report.priceAs} (--price-as), whatever model each request ran on`]),
    ...(unknown === undefined ? [] : [`  ${unknown}`]),
  ];
}

/** One row per strategy, columns aligned. */
function strategyTable(report: SessionReport): string[] {
  const header = [
    'strategy',
    'peak',
    'at compact',
    'final',
    'runway',
    'x rec',
    'refused',
    'rescued',
    'cache read',
    'cache write',
    'uncached',
    'hit',
    'cost $',
    'epochs',
    'shed KB',
    'thinking sent/removed (last)',
    'fullness per turn',
  ];
  const rows = STRATEGIES.map((name) => {
    const s = report.strategies[name];
    return [
      STRATEGY_LABELS[name],
      pct(s.peakFullness),
      s.atCompaction.length === 0 ? '-' : s.atCompaction.map((f, i) => `${pct(f)}${s.atCompactionRefused[i] === true ? '*' : ''}`).join(' '),
      pct(s.finalFullness),
      runwayCell(s.runway),
      s.runway.ratio === null ? '-' : `${s.runway.ratio.toFixed(2)}x`,
      String(s.refused),
      String(s.rescued),
      s.cacheReadTokens.toLocaleString('en-US'),
      s.cacheWriteTokens.toLocaleString('en-US'),
      s.uncachedTokens.toLocaleString('en-US'),
      pct(s.cacheHitRatio),
      costCell(s.costUsd, report.unpricedModels),
      String(s.epochs),
      s.bytesShed === null ? 'per epoch' : (s.bytesShed / 1024).toFixed(0),
      `${s.thinking.sent}/${s.thinking.removed} (${s.thinking.finalSent}/${s.thinking.finalRemoved})`,
      sparkline(s.series.fullness, SPARK_WIDTH),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const fmt = (cells: readonly string[]): string =>
    `  ${cells.map((cell, i) => (i === 0 || i === cells.length - 1 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ')}`.trimEnd();
  return [fmt(header), ...rows.map(fmt)];
}

/** The runway legend, shed mode's epochs and holds, refaults, and what passed through or failed. */
function footLines(report: SessionReport): string[] {
  const lines: string[] = [];
  lines.push(`  runway: requests answered before the client's first compaction (${RUNWAY_LEGEND}); at compact '*': that request was refused`);
  lines.push(...shedLines(report.shedEpochs), ...heldLines(report.shedHeld), ...workingSetNote(report.workingSet));
  const r = report.refaults;
  if (r.rate !== null) {
    lines.push(
      `  rescue refaults: ${r.blocksRefaulted} of ${r.blocksElided} elided blocks were files the session read again later (${pct(r.rate, 1)}), ${r.refaults} read(s)`,
    );
  }
  const sr = report.shedRefaults;
  if (sr.rate !== null) {
    lines.push(
      `  shed refaults: ${sr.blocksRefaulted} of ${sr.blocksElided} shed tool results were files the session read again later (${pct(sr.rate, 1)}), ${sr.refaults} read(s)`,
    );
  }
  const notes = Object.entries(report.passthrough).map(([k, v]) => `${k} x${v}`);
  if (notes.length > 0) lines.push(`  pass-throughs: ${notes.join(', ')}`);
  if (report.stateFailures.length > 0) lines.push(`  state failures: ${report.stateFailures.join('; ')}`);
  return lines;
}

/**
 * Shed mode's epochs, one line each (never a sum): the span, the gate, and what the epoch is worth
 * per later turn at the provider's own prices, its basis stamped, against the re-write it cost.
 */
function shedLines(epochs: readonly ShedEpochFigure[]): string[] {
  if (epochs.length === 0) return ['  shed epochs: none latched'];
  return [
    '  shed epochs (each on its own: never summed, never set against cache reads):',
    ...epochs.map((e) => {
      const g = e.gate;
      const against =
        g === undefined
          ? ''
          : `${g.forcedAt === undefined ? '<=' : '>'} ${g.expectedRemainingTurns} expected (${g.horizonFrom === 'horizon' ? '--horizon' : 'turns so far'})`;
      const forced = g?.forcedAt === undefined ? '' : `, forced at the ${pct(GATE_CEILING)} ceiling`;
      const gate = g === undefined ? 'no gate' : `gate: break-even ${g.breakEvenTurns ?? 'never'} turns ${against}${forced}; ran ${e.turnsAfter} more`;
      const t = e.perLaterTurn;
      return (
        `    #${e.epoch} ${shortId(e.conversation)} request ${e.request + 1} at ${pct(e.fullness)}: messages ${e.span.first}..${e.span.last} (${e.span.messages}, ${(e.span.bytes / 1024).toFixed(0)} KB); ${gate}\n` +
        `       per later turn ${t.shedTokens.toLocaleString('en-US')} tokens not sent (${t.warmTokens.toLocaleString('en-US')} warm, ${t.coldTokens.toLocaleString('en-US')} cold) = ` +
        `${t.inputTokenEquivalent.toLocaleString('en-US')} input tokens, $${t.usd.toFixed(4)} [${t.basis}]; re-write at the latch ${e.rewrite.cacheWriteTokens.toLocaleString('en-US')} tokens, $${e.rewrite.usd.toFixed(4)} [${e.rewrite.basis}]; ` +
        `${e.payback.turnsNeeded === null ? 'never pays back' : `pays back in ${e.payback.turnsNeeded} turn(s): ${e.payback.paidBack ? 'did' : 'did not'}`}`
      );
    }),
  ];
}

/** Requests over the threshold where shed latched nothing, and why; the gate's figures the first time it held. */
function heldLines(held: SessionReport['shedHeld']): string[] {
  const counts = Object.entries(held.requests).map(([why, n]) => `${why} x${n}`);
  if (counts.length === 0) return [];
  const lines = [`  shed held back on requests over the threshold: ${counts.join(', ')}`];
  const g = held.firstGate;
  if (g !== undefined) {
    lines.push(
      `    first gate refusal, ${shortId(g.conversation)} request ${g.request + 1}: break-even ${g.gate.breakEvenTurns ?? 'never'} turns > ${g.gate.expectedRemainingTurns} expected; ` +
        `span ${(g.spanBytes / 1024).toFixed(0)} KB, ${g.gate.droppedCachedTokens.toLocaleString('en-US')} tokens dropped, against ${g.gate.invalidatedSuffixTokens.toLocaleString('en-US')} tokens after it to write again (${(g.windowBytes / 1024).toFixed(0)} KB)`,
    );
  }
  return lines;
}

/** What ends each runway, as its cell marks it. */
const RUNWAY_LEGEND =
  "a count reaching the point; '*' ended by a refusal; '~' estimated past the transcript at its growth per request, with no further epoch; '>=' never reached";

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

/** Where the client compacts, where that came from, and the recorded compaction. */
export function compactionLine(report: SessionReport): string {
  const p = report.compactionPoint;
  const at = `compaction point ${p.tokens.toLocaleString('en-US')} tokens (${pct(report.autoCompactAt)} of the window, ${p.marginTokens.toLocaleString('en-US')} below it)`;
  const from =
    p.source === 'transcript'
      ? "the margin of the transcript's auto compact_boundary"
      : "assumed: Claude Code's rule, the window less 20,000 output tokens less a 13,000 buffer";
  const rec = p.recorded;
  const recorded =
    rec === undefined
      ? 'the session never compacted'
      : `recorded: ${rec.trigger} at ${rec.preTokens === undefined ? 'an unknown count' : rec.preTokens.toLocaleString('en-US')} tokens`;
  return `${at}, from ${from}; ${recorded}`;
}

/** `<file>#<n>` without the folder. */
function shortId(id: string): string {
  return id.slice(id.lastIndexOf('/') + 1);
}

/** The billed misses the model foresaw (a gap over the TTL, a change of model) and those it could not. */
function missLines(m: MissTally): string[] {
  const billedCold = m.explained.requests + m.unforeseeable.requests;
  const lines = [
    `  cache misses billed (the previous prefix written again): ${billedCold} of ${m.judged}; the model foresaw ${m.explained.requests} ` +
      `(${m.explained.afterTtl} after a gap over the TTL, ${m.explained.modelChange} on a change of model, ${m.explained.other} otherwise)`,
  ];
  if (m.unforeseeable.requests > 0) {
    lines.push(
      `  ${m.unforeseeable.requests} unforeseeable: the model read the prefix (${m.unforeseeable.cacheWriteTokens.toLocaleString('en-US')} tokens written that it cannot see coming)`,
    );
  }
  if (m.modelColdBilledWarm.requests > 0) {
    lines.push(
      `  ${m.modelColdBilledWarm.requests} billed warm where the model was cold (${m.modelColdBilledWarm.afterTtl} after a gap over the TTL: the cache outlived it)`,
    );
  }
  return lines;
}

function pct(x: number, digits = 0): string {
  return `${(x * 100).toFixed(digits)}%`;
}

function signed(x: number): string {
  return `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
}
