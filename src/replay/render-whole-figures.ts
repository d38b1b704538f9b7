/**
 * `ctxshed replay --whole-figures`: the whole-session figures (whole-session-figures.ts) of every
 * session at several windows as one Markdown table, the one docs/economics.md quotes, and the rows
 * it is made from (its `--json`, kept as a test fixture so the docs are checked in seconds). Pure.
 */
import type { StrategyName } from './strategy-tally.js';
import type { WholeSessionReport } from './whole-session-figures.js';

/** The windows `--whole-figures` replays at unless told otherwise: the sessions' own, and 1M. */
export const WHOLE_FIGURE_WINDOWS = [200_000, 1_000_000] as const;

/** The goals the issue sets (issue 27): at 200k against what the user paid; at 1M against a client that never compacts. */
export const WHOLE_GOALS = { costBelowPaid: -0.1, cacheWriteRatio: 1.2, costBelowNever1m: { rescue: -0.25, shed: -0.35 }, runwayRatio: 2 } as const;

const SHOWN: readonly StrategyName[] = ['recorded', 'rescue', 'shed'];

/** One row of the table: a session at a window under a strategy. */
export interface WholeFigureRow {
  readonly session: string;
  readonly window: number;
  readonly strategy: StrategyName;
  readonly runway: { readonly requests: number; readonly ratio: number | null; readonly measured: boolean };
  readonly costUsd: number;
  readonly vsPaid: number | null;
  readonly vsNever: number | null;
  readonly cacheWriteRatio: number | null;
  readonly refused: number;
  readonly epochs: number;
  readonly thinking: { readonly sent: number; readonly removed: number };
}

/** The rows of every session's whole-session figures at each window. */
export function wholeFigureRows(runs: ReadonlyArray<{ readonly window: number; readonly reports: readonly WholeSessionReport[] }>): WholeFigureRow[] {
  const rows: WholeFigureRow[] = [];
  const files = runs[0]?.reports.map((r) => r.file) ?? [];
  for (const file of files) {
    for (const run of runs) {
      const report = run.reports.find((r) => r.file === file);
      if (report === undefined) continue;
      for (const strategy of SHOWN) {
        const w = report.strategies[strategy].wholeSession;
        rows.push({
          session: file.slice(file.lastIndexOf('/') + 1).slice(0, 8),
          window: run.window,
          strategy,
          runway: w.runway,
          costUsd: w.costUsd,
          vsPaid: w.vs.recordedWithCompaction,
          vsNever: w.vs.recordedWithoutCompaction,
          cacheWriteRatio: w.cacheWriteRatio,
          refused: w.refused,
          epochs: w.epochs,
          thinking: w.thinking,
        });
      }
    }
  }
  return rows;
}

/** The Markdown table of the rows, with the command that made them. */
export function renderWholeFigures(rows: readonly WholeFigureRow[], command: string): string {
  const header = [
    'session',
    'window',
    'strategy',
    'runway',
    'runway vs recorded',
    'cost',
    'vs paid',
    'vs never compacting',
    'cache writes vs paid',
    'refused',
    'epochs',
    'thinking kept',
    'goals',
  ];
  const lines = rows.map((r) => {
    const floor = r.runway.measured ? '' : '>=';
    return [
      r.session,
      `${r.window / 1000}k`,
      r.strategy === 'recorded' ? 'recorded, never compacting' : r.strategy,
      `${floor}${r.runway.requests}`,
      r.runway.ratio === null ? '-' : `${floor}${r.runway.ratio.toFixed(2)}x`,
      `$${r.costUsd.toFixed(2)}`,
      vs(r.vsPaid, r.refused),
      r.strategy === 'recorded' ? 'baseline' : vs(r.vsNever, r.refused),
      r.cacheWriteRatio === null ? '-' : `${r.cacheWriteRatio.toFixed(2)}x`,
      String(r.refused),
      String(r.epochs),
      r.thinking.sent + r.thinking.removed === 0 ? '-' : `${((r.thinking.sent / (r.thinking.sent + r.thinking.removed)) * 100).toFixed(0)}%`,
      goals(r),
    ];
  });
  return [
    `Made by \`${command}\`; the whole session, as if the client never compacted; "vs paid": against the recorded session with its compaction (the compaction call priced from its record); ">=": the data ran out before the client would have compacted.`,
    '',
    `| ${header.join(' | ')} |`,
    `| ${header.map((_, i) => (i < 3 ? '---' : '---:')).join(' | ')} |`,
    ...lines.map((l) => `| ${l.join(' | ')} |`),
    '',
  ].join('\n');
}

/** The goals for rescue and shed: met, not met, or not comparable (refusals). */
function goals(r: WholeFigureRow): string {
  if (r.strategy === 'recorded') return '';
  if (r.refused > 0) return 'n/a (refusals)';
  const met = (ok: boolean): string => (ok ? 'met' : 'not met');
  const runway =
    r.runway.ratio === null
      ? 'runway n/a'
      : r.runway.ratio >= WHOLE_GOALS.runwayRatio
        ? 'runway met'
        : r.runway.measured
          ? 'runway not met'
          : 'runway: data ran out';
  if (r.window <= 200_000) {
    const cost = r.vsPaid === null ? 'n/a' : met(r.vsPaid <= WHOLE_GOALS.costBelowPaid);
    const writes = r.cacheWriteRatio === null ? 'n/a' : met(r.cacheWriteRatio <= WHOLE_GOALS.cacheWriteRatio);
    return `cost ${cost}, writes ${writes}, ${runway}`;
  }
  const target = r.strategy === 'shed' ? WHOLE_GOALS.costBelowNever1m.shed : WHOLE_GOALS.costBelowNever1m.rescue;
  return `cost ${r.vsNever === null ? 'n/a' : met(r.vsNever <= target)}`;
}

function vs(fraction: number | null, refused: number): string {
  if (fraction === null) return '-';
  return `${fraction >= 0 ? '+' : ''}${(fraction * 100).toFixed(1)}%${refused > 0 ? ' (refusals)' : ''}`;
}
