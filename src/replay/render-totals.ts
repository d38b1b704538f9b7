/**
 * The sessions of a replay side by side and their total (render-table.ts), in the manner of
 * ccusage's daily table: one row per file, the whole-session cost as paid, never compacting,
 * and under rescue and shed, then a total row across the files. Pure.
 */
import { costCell } from './cost-cell.js';
import { fitTable, type TextLayout } from './text-layout.js';
import type { WholeSessionReport } from './whole-session-figures.js';

const HEADER = ['session', 'requests', 'paid $', 'never compacting $', 'rescue $', 'rescue vs paid', 'shed $', 'shed vs paid', 'refused'];
const COMPACT = { columns: [0, 2, 4, 5, 6, 7], header: ['session', 'paid $', 'rescue $', 'vs paid', 'shed $', 'vs paid'] };

/** The longest session name shown; a longer file name is cut, its start kept. */
const NAME_MAX = 20;

/** The figures a row is made of: one session's, or the sum over all. */
interface TotalFigures {
  readonly name: string;
  readonly requests: number;
  readonly paid: number;
  readonly never: number;
  readonly rescue: number;
  readonly shed: number;
  readonly refused: number;
  readonly unknown: readonly string[];
}

/** The table's lines (a title above, a legend under), or none when no report has whole-session figures. */
export function totalsLines(reports: readonly object[], layout: TextLayout): string[] {
  const whole = reports.filter((r): r is WholeSessionReport => 'wholeSession' in r);
  if (whole.length === 0) return [];
  const figures = whole.map(figuresOf);
  const total = figures.reduce(sum, {
    name: `total (${figures.length} file${figures.length === 1 ? '' : 's'})`,
    requests: 0,
    paid: 0,
    never: 0,
    rescue: 0,
    shed: 0,
    refused: 0,
    unknown: [],
  });
  const rows = [...figures, total].map(row);
  return [
    'all sessions, whole (what the user paid, and what each strategy would have cost):',
    ...fitTable({ header: HEADER, rows }, COMPACT, layout).lines,
    "  vs paid: above (+) or below (-) what the user paid; '!': some prompts were refused as too long and never billed, so the cost is not comparable; refused: rescue's and shed's refusals",
  ];
}

function figuresOf(r: WholeSessionReport): TotalFigures {
  const base = r.file.slice(r.file.lastIndexOf('/') + 1).replace(/\.jsonl$/, '');
  const s = r.strategies;
  return {
    name: base.length > NAME_MAX ? `${base.slice(0, NAME_MAX - 1)}~` : base,
    requests: r.requests,
    paid: r.wholeSession.baselines.recordedWithCompaction.costUsd,
    never: s.recorded.wholeSession.costUsd,
    rescue: s.rescue.wholeSession.costUsd,
    shed: s.shed.wholeSession.costUsd,
    refused: s.rescue.wholeSession.refused + s.shed.wholeSession.refused,
    unknown: r.unpricedModels,
  };
}

function sum(a: TotalFigures, b: TotalFigures): TotalFigures {
  return {
    name: a.name,
    requests: a.requests + b.requests,
    paid: a.paid + b.paid,
    never: a.never + b.never,
    rescue: a.rescue + b.rescue,
    shed: a.shed + b.shed,
    refused: a.refused + b.refused,
    unknown: [...new Set([...a.unknown, ...b.unknown])],
  };
}

function row(f: TotalFigures): string[] {
  const cost = (usd: number): string => costCell(usd, f.unknown);
  const mark = f.refused > 0 ? '!' : '';
  return [
    f.name,
    f.requests.toLocaleString('en-US'),
    cost(f.paid),
    cost(f.never),
    cost(f.rescue),
    `${vs(f.rescue, f.paid)}${mark}`,
    cost(f.shed),
    `${vs(f.shed, f.paid)}${mark}`,
    String(f.refused),
  ];
}

function vs(cost: number, base: number): string {
  if (!(base > 0)) return '-';
  const f = cost / base - 1;
  return `${f >= 0 ? '+' : ''}${(f * 100).toFixed(1)}%`;
}
