/**
 * The summary that opens the replay page (render-html.ts): what was replayed, and per strategy
 * the headline cost against what was paid and the runway, every estimate marked. Over the whole
 * session where the reports have it (the default basis), else up to the first compaction. Pure.
 */
import { dollarCell } from './cost-cell.js';
import type { SessionReport } from './session-report.js';
import { STRATEGIES, type StrategyName } from './strategy-tally.js';
import type { WholeSessionReport } from './whole-session-figures.js';

/** One strategy's headline over every session. */
interface Headline {
  readonly cost: number;
  readonly base: number;
  readonly refused: number;
  /** Each session's runway over the recorded one, and whether it is an estimate or a floor. */
  readonly runways: readonly { readonly requests: number; readonly ratio: number | null; readonly mark: '' | '>=' | '~' }[];
}

/** The summary section. */
export function summaryHtml(reports: readonly SessionReport[], labels: Record<StrategyName, string>, escapeText: (s: string) => string): string {
  const whole = reports.every((r) => 'wholeSession' in r);
  const requests = reports.reduce((n, r) => n + r.requests, 0);
  const windows = [...new Set(reports.map((r) => r.window.toLocaleString('en-US')))].join(', ');
  const unknown = [...new Set(reports.flatMap((r) => r.unpricedModels))];
  const estimated = whole ? reports.reduce((n, r) => n + (r as WholeSessionReport).wholeSession.estimatedRequests, 0) : 0;
  const rows = STRATEGIES.map((s) =>
    rowHtml(s === 'recorded' ? (whole ? 'never compacting' : labels[s]) : labels[s], headline(reports, s, whole), unknown, escapeText),
  ).join('');
  const basis = whole
    ? 'over the whole session, as if the client never compacted, against what the user paid (the recorded session with its compaction)'
    : 'up to the first compaction, against the session as recorded';
  const notes = [
    `Replayed ${reports.length} session${reports.length === 1 ? '' : 's'}, ${requests.toLocaleString('en-US')} requests, at a window of ${windows} tokens; figures ${basis}.`,
    estimated > 0 ? `The prompts of ${estimated} request(s) past a compaction are estimates (from bytes), and so are the costs they add to.` : '',
    "Runway: requests answered before the client compacts, over the recorded session's; '>=' the data ran out first (at least that); '~' an estimate past the data. '!': some prompts were refused as too long and never billed, so the cost is not comparable.",
  ].filter((l) => l !== '');
  return `<section class="summary"><h2>Summary</h2>${notes.map((l) => `<p>${escapeText(l)}</p>`).join('')}
<div class="scroll"><table><tr><th>strategy</th><th>cost</th><th>vs paid</th><th>runway (vs recorded)</th></tr>${rows}</table></div></section>`;
}

function headline(reports: readonly SessionReport[], s: StrategyName, whole: boolean): Headline {
  let cost = 0;
  let base = 0;
  let refused = 0;
  const runways: Headline['runways'][number][] = [];
  for (const r of reports) {
    if (whole) {
      const w = (r as WholeSessionReport).strategies[s].wholeSession;
      cost += w.costUsd;
      base += (r as WholeSessionReport).wholeSession.baselines.recordedWithCompaction.costUsd;
      refused += w.refused;
      runways.push({ requests: w.runway.requests, ratio: w.runway.ratio, mark: w.runway.measured ? '' : '>=' });
    } else {
      const x = r.strategies[s];
      cost += x.costUsd;
      base += r.strategies.recorded.costUsd;
      refused += x.refused;
      runways.push({
        requests: x.runway.requests,
        ratio: x.runway.ratio,
        mark: x.runway.end === 'extrapolated' ? '~' : x.runway.end === 'not_reached' ? '>=' : '',
      });
    }
  }
  return { cost, base, refused, runways };
}

function rowHtml(label: string, h: Headline, unknown: readonly string[], escapeText: (s: string) => string): string {
  const warn = h.refused > 0 ? '!' : '';
  const vs = h.base > 0 ? `${h.cost >= h.base ? '+' : ''}${((h.cost / h.base - 1) * 100).toFixed(1)}%${warn}` : '-';
  const runways = runwayText(h.runways);
  return `<tr><td>${escapeText(label)}</td><td>${escapeText(dollarCell(h.cost, unknown))}${warn}</td><td>${escapeText(vs)}</td><td>${escapeText(runways)}</td></tr>`;
}

/** Each session's runway ratio, or over many sessions their range (a mark on an end that carries one). */
function runwayText(runways: Headline['runways']): string {
  // No ratio where the recorded runway was not measured (a manual compaction): the requests instead.
  const cell = (r: Headline['runways'][number]): string => (r.ratio === null ? `${r.mark}${r.requests} requests` : `${r.mark}${r.ratio.toFixed(2)}x`);
  const known = runways.filter((r) => r.ratio !== null).sort((a, b) => (a.ratio ?? 0) - (b.ratio ?? 0));
  if (runways.length <= 4 || known.length < 2) return runways.map(cell).join(', ');
  return `${cell(known[0]!)} to ${cell(known.at(-1)!)} over ${known.length} sessions`;
}
