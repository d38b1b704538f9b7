/**
 * The sessions of a replay side by side and their total (render-table.ts), in the manner of
 * ccusage's daily table: one row per file, what was paid (the recorded usage billed), the recorded
 * session modelled with its compaction, never compacting, and rescue and shed against the modelled
 * recorded session (like for like), then a total row across the files. A figure with requests on
 * a model the price table does not know carries `>=` and the model's name. Pure.
 */
import { costCell } from './cost-cell.js';
import { fitTable, type TextLayout } from './text-layout.js';
import type { WholeSessionReport } from './whole-session-figures.js';

const HEADER = ['session', 'requests', 'paid $', 'recorded $', 'never compacting $', 'rescue $', 'rescue vs recorded', 'shed $', 'shed vs recorded', 'refused'];
const COMPACT = { columns: [0, 2, 3, 5, 6, 7, 8], header: ['session', 'paid $', 'recorded $', 'rescue $', 'vs rec.', 'shed $', 'vs rec.'] };

/** The longest session name shown; a longer file name is cut, its start kept. */
const NAME_MAX = 20;

/** A cost and the models it could not price. */
interface Cost {
  readonly usd: number;
  readonly unknown: readonly string[];
}

/** The figures a row is made of: one session's, or the sum over all. */
interface TotalFigures {
  readonly name: string;
  readonly requests: number;
  readonly paid: Cost;
  readonly recorded: Cost;
  readonly never: Cost;
  readonly rescue: Cost;
  readonly shed: Cost;
  readonly refused: number;
}

/** The table's lines (a title above, a legend under), or none when no report has whole-session figures. */
export function totalsLines(reports: readonly object[], layout: TextLayout): string[] {
  const whole = reports.filter((r): r is WholeSessionReport => 'wholeSession' in r);
  if (whole.length === 0) return [];
  const figures = whole.map(figuresOf);
  const zero: Cost = { usd: 0, unknown: [] };
  const total = figures.reduce(sum, {
    name: `total (${figures.length} file${figures.length === 1 ? '' : 's'})`,
    requests: 0,
    paid: zero,
    recorded: zero,
    never: zero,
    rescue: zero,
    shed: zero,
    refused: 0,
  });
  const rows = [...figures, total].map(row);
  return [
    'all sessions, whole (what the user paid, and what each strategy would have cost):',
    ...fitTable({ header: HEADER, rows }, COMPACT, layout).lines,
    "  paid: the recorded usage of every request billed at the price table; recorded: the recorded session with its compaction, modelled as the strategies are; vs recorded: above (+) or below (-) it, like for like; '!': some prompts were refused as too long and never billed, so the cost is not comparable; refused: rescue's and shed's refusals",
  ];
}

function figuresOf(r: WholeSessionReport): TotalFigures {
  const base = r.file.slice(r.file.lastIndexOf('/') + 1).replace(/\.jsonl$/, '');
  const s = r.strategies;
  const { paid, recordedWithCompaction: recorded } = r.wholeSession.baselines;
  return {
    name: base.length > NAME_MAX ? `${base.slice(0, NAME_MAX - 1)}~` : base,
    requests: r.requests,
    paid: { usd: paid.costUsd, unknown: paid.unpricedModels },
    recorded: { usd: recorded.costUsd, unknown: recorded.unpricedModels },
    never: { usd: s.recorded.wholeSession.costUsd, unknown: s.recorded.wholeSession.unpricedModels },
    rescue: { usd: s.rescue.wholeSession.costUsd, unknown: s.rescue.wholeSession.unpricedModels },
    shed: { usd: s.shed.wholeSession.costUsd, unknown: s.shed.wholeSession.unpricedModels },
    refused: s.rescue.wholeSession.refused + s.shed.wholeSession.refused,
  };
}

function sum(a: TotalFigures, b: TotalFigures): TotalFigures {
  const add = (x: Cost, y: Cost): Cost => ({ usd: x.usd + y.usd, unknown: [...new Set([...x.unknown, ...y.unknown])].sort() });
  return {
    name: a.name,
    requests: a.requests + b.requests,
    paid: add(a.paid, b.paid),
    recorded: add(a.recorded, b.recorded),
    never: add(a.never, b.never),
    rescue: add(a.rescue, b.rescue),
    shed: add(a.shed, b.shed),
    refused: a.refused + b.refused,
  };
}

function row(f: TotalFigures): string[] {
  const cost = (c: Cost): string => costCell(c.usd, c.unknown);
  const mark = f.refused > 0 ? '!' : '';
  return [
    f.name,
    f.requests.toLocaleString('en-US'),
    cost(f.paid),
    cost(f.recorded),
    cost(f.never),
    cost(f.rescue),
    `${vs(f.rescue.usd, f.recorded.usd)}${mark}`,
    cost(f.shed),
    `${vs(f.shed.usd, f.recorded.usd)}${mark}`,
    String(f.refused),
  ];
}

function vs(cost: number, base: number): string {
  if (!(base > 0)) return '-';
  const f = cost / base - 1;
  return `${f >= 0 ? '+' : ''}${(f * 100).toFixed(1)}%`;
}
