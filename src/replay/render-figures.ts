/**
 * `ctxshed replay --figures`: one Markdown table of the replay at several windows, the one
 * docs/shed.md and docs/economics.md quote, so that it can be made again by one command after
 * any change to shed or rescue. Pure: reports in, text out.
 */
import type { SessionReport } from './replay-session.js';
import { runwayCell } from './render-table.js';
import type { StrategyName, StrategySummary } from './strategy-tally.js';

/** The windows `--figures` replays at unless told otherwise: the real one, and two that force compaction sooner. */
export const FIGURE_WINDOWS = [200_000, 100_000, 60_000] as const;

/** The goals the figures are held against (issue 20). */
export const GOALS = { runwayRatio: 2, costRatio: 0.9, cacheWriteRatio: 1.2 } as const;

/** The strategies the table shows: the client alone and ctxshed's two modes. */
const SHOWN: readonly StrategyName[] = ['recorded', 'rescue', 'shed'];

/** Every session's replay at one window. */
export interface FigureRun {
  readonly window: number;
  readonly reports: readonly SessionReport[];
}

/** The table, a line per session, window and strategy, and what it was made with. */
export function renderFigures(runs: readonly FigureRun[], command: string): string {
  const header = [
    'session',
    'window',
    'strategy',
    'peak',
    'at compaction',
    'runway',
    'runway vs recorded',
    'refused / retried',
    'cost vs recorded',
    'cache writes vs recorded',
    'epochs',
    'paid back',
    'goals: 2x runway / -10% cost / <=1.2x writes',
  ];
  const rows: string[][] = [];
  const sessions = runs[0]?.reports.map((r) => r.file) ?? [];
  for (const file of sessions) {
    for (const run of runs) {
      const report = run.reports.find((r) => r.file === file);
      if (report === undefined) continue;
      const recorded = report.strategies.recorded;
      for (const name of SHOWN) rows.push(row(report, name, report.strategies[name], recorded));
    }
  }
  const first = runs[0]?.reports[0];
  return [
    `Made by \`${command}\`; cost ${first?.costBasis.basis ?? '-'}.`,
    '',
    `| ${header.join(' | ')} |`,
    `| ${header.map((_, i) => (i < 3 ? '---' : '---:')).join(' | ')} |`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
    '',
    ...sessions.map(
      (file) =>
        `- ${shortName(file)}: ${runs[0]?.reports.find((r) => r.file === file)?.compactionPoint.source === 'transcript' ? "compaction point from the transcript's auto compact_boundary" : "compaction point by Claude Code's rule (window − 33,000), an assumption"}; recorded compaction: ${recordedCompaction(runs[0]?.reports.find((r) => r.file === file))}.`,
    ),
    '',
  ].join('\n');
}

function row(report: SessionReport, name: StrategyName, s: StrategySummary, recorded: StrategySummary): string[] {
  const shed = name === 'shed' ? report.shedEpochs : [];
  const comparable = s.refused === 0 && recorded.refused === 0;
  return [
    shortName(report.file),
    `${report.window / 1000}k`,
    name,
    pct(s.peakFullness),
    s.atCompaction.length === 0 ? '-' : s.atCompaction.map((f, i) => `${pct(f)}${s.atCompactionRefused[i] === true ? ' (refused)' : ''}`).join(' '),
    runwayCell(s.runway),
    s.runway.ratio === null ? '-' : `${s.runway.ratio.toFixed(2)}x`,
    `${s.refused} / ${s.rescued}`,
    name === 'recorded' ? `$${s.costUsd.toFixed(2)}` : `${signedPct(ratio(s.costUsd, recorded.costUsd) - 1)}${comparable ? '' : ' (refusals)'}`,
    name === 'recorded' ? s.cacheWriteTokens.toLocaleString('en-US') : `${ratio(s.cacheWriteTokens, recorded.cacheWriteTokens).toFixed(2)}x`,
    String(s.epochs),
    name === 'shed' ? `${shed.filter((e) => e.payback.paidBack).length} of ${shed.length}` : '-',
    name === 'shed' ? goals(s, recorded, comparable) : '',
  ];
}

/** Whether shed meets each goal: runway, cost and cache writes against the recorded session. */
function goals(s: StrategySummary, recorded: StrategySummary, comparable: boolean): string {
  const met = (ok: boolean): string => (ok ? 'met' : 'not met');
  const runway = s.runway.ratio === null ? 'n/a' : met(s.runway.ratio >= GOALS.runwayRatio);
  const money = comparable ? met(ratio(s.costUsd, recorded.costUsd) <= GOALS.costRatio) : 'n/a';
  const writes = comparable ? met(ratio(s.cacheWriteTokens, recorded.cacheWriteTokens) <= GOALS.cacheWriteRatio) : 'n/a';
  return `${runway} / ${money} / ${writes}`;
}

function recordedCompaction(report: SessionReport | undefined): string {
  const r = report?.compactionPoint.recorded;
  if (r === undefined) return 'none';
  return `${r.trigger} at ${r.preTokens === undefined ? 'an unknown count' : `${r.preTokens.toLocaleString('en-US')} tokens`}`;
}

function ratio(a: number, b: number): number {
  return b > 0 ? a / b : 0;
}

function shortName(file: string): string {
  return file.slice(file.lastIndexOf('/') + 1).slice(0, 8);
}

function pct(x: number): string {
  return `${(x * 100).toFixed(0)}%`;
}

function signedPct(x: number): string {
  return `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
}
