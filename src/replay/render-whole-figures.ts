/**
 * `ctxshed replay --whole-figures`: the whole-session figures (whole-session-figures.ts) of every
 * session at several windows as one Markdown table, the one docs/economics.md quotes, and the rows
 * it is made from (its `--json`, kept as a test fixture so the docs are checked in seconds). Under
 * the table, each session's paid figure (its recorded usage billed) and the modelled baseline's
 * ratio to it. A cost with requests on a model the price table does not know shows `>=` and the
 * model's name. Pure.
 */
import { dollarCell } from './cost-cell.js';
import type { RefaultFigure } from './replay-refaults.js';
import type { StrategyName } from './strategy-tally.js';
import type { WholeSessionReport } from './whole-session-figures.js';

/** The windows `--whole-figures` replays at unless told otherwise: the sessions' own, and 1M. */
export const WHOLE_FIGURE_WINDOWS = [200_000, 1_000_000] as const;

/**
 * The goals the issues set (issues 27 and 40): at 200k against the recorded session with its
 * compaction, like for like (the modelled baseline: against the bill itself the model's own error
 * would count as a saving); at 1M against a client that never compacts.
 */
export const WHOLE_GOALS = { costBelowRecorded: -0.1, cacheWriteRatio: 1.2, costBelowNever1m: { rescue: -0.25, shed: -0.35 }, runwayRatio: 2 } as const;

const SHOWN: readonly StrategyName[] = ['recorded', 'rescue', 'shed'];

/** One row of the table: a session at a window under a strategy. */
export interface WholeFigureRow {
  readonly session: string;
  readonly window: number;
  readonly strategy: StrategyName;
  readonly runway: { readonly requests: number; readonly ratio: number | null; readonly measured: boolean };
  readonly costUsd: number;
  /** Models without a price among the requests `costUsd` priced: it is then a floor. */
  readonly unpricedModels: readonly string[];
  /** Against the recorded session with its compaction, modelled as the strategies are (like for like). */
  readonly vsRecorded: number | null;
  readonly vsNever: number | null;
  /** Cache writes over the modelled recorded session's. */
  readonly cacheWriteRatio: number | null;
  readonly refused: number;
  readonly epochs: number;
  readonly thinking: { readonly sent: number; readonly removed: number };
  /** Blocks the strategy took out that the session read back later, over the whole session; null for the recorded session. */
  readonly refaults: RefaultFigure | null;
  /** What was paid for the session (its recorded usage billed: recorded-bill.ts), and the models it could not bill. */
  readonly paid: { readonly costUsd: number; readonly unpricedModels: readonly string[] };
  /** The recorded session with its compaction, modelled as the strategies are, and its cost over what was paid. */
  readonly recorded: { readonly costUsd: number; readonly unpricedModels: readonly string[]; readonly ratioToPaid: number | null };
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
        const { paid, recordedWithCompaction: recorded } = report.wholeSession.baselines;
        rows.push({
          session: file.slice(file.lastIndexOf('/') + 1).slice(0, 8),
          window: run.window,
          strategy,
          runway: w.runway,
          costUsd: w.costUsd,
          unpricedModels: w.unpricedModels,
          vsRecorded: w.vs.recordedWithCompaction,
          vsNever: w.vs.recordedWithoutCompaction,
          cacheWriteRatio: w.cacheWriteRatio,
          refused: w.refused,
          epochs: w.epochs,
          thinking: w.thinking,
          refaults: w.refaults,
          paid: { costUsd: paid.costUsd, unpricedModels: paid.unpricedModels },
          recorded: { costUsd: recorded.costUsd, unpricedModels: recorded.unpricedModels, ratioToPaid: recorded.ratioToPaid },
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
    'vs recorded',
    'vs never compacting',
    'cache writes vs recorded',
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
      dollarCell(r.costUsd, r.unpricedModels),
      vs(r.vsRecorded, r.refused),
      r.strategy === 'recorded' ? 'baseline' : vs(r.vsNever, r.refused),
      r.cacheWriteRatio === null ? '-' : `${r.cacheWriteRatio.toFixed(2)}x`,
      String(r.refused),
      String(r.epochs),
      r.thinking.sent + r.thinking.removed === 0 ? '-' : `${((r.thinking.sent / (r.thinking.sent + r.thinking.removed)) * 100).toFixed(0)}%`,
      goals(r),
    ];
  });
  return [
    `Made by \`${command}\`; the whole session, as if the client never compacted; "vs recorded": against the recorded session with its compaction, modelled as the strategies are (the compaction call priced from its record); ">=" before a runway: the data ran out before the client would have compacted.`,
    '',
    `| ${header.join(' | ')} |`,
    `| ${header.map((_, i) => (i < 3 ? '---' : '---:')).join(' | ')} |`,
    ...lines.map((l) => `| ${l.join(' | ')} |`),
    '',
    ...paidLines(rows),
  ].join('\n');
}

/** Each session's paid figure and the modelled recorded session's ratio to it, once per session (the bill does not depend on the window). */
function paidLines(rows: readonly WholeFigureRow[]): string[] {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const r of rows) {
    if (seen.has(r.session)) continue;
    seen.add(r.session);
    const ratio = r.recorded.ratioToPaid === null ? '' : `, ${r.recorded.ratioToPaid.toFixed(2)}x paid`;
    lines.push(
      `- ${r.session}: paid ${dollarCell(r.paid.costUsd, r.paid.unpricedModels)} (its recorded usage at the price table); ` +
        `the recorded session with its compaction, modelled: ${dollarCell(r.recorded.costUsd, r.recorded.unpricedModels)}${ratio}.`,
    );
  }
  return lines.length === 0 ? [] : [...lines, ''];
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
    const cost = r.vsRecorded === null ? 'n/a' : met(r.vsRecorded <= WHOLE_GOALS.costBelowRecorded);
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
