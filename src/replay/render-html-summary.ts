/**
 * The summary that opens the replay page (render-html.ts): what was replayed, what was paid, and
 * per strategy the headline cost against the recorded session (like for like) and the runway,
 * every estimate marked. Over the whole session where the reports have it (the default basis),
 * else up to the first compaction. A cost with requests on a model without a price shows `>=` and
 * the model's name. Pure.
 */
import { dollarCell } from './cost-cell.js';
import type { SessionReport } from './session-report.js';
import { STRATEGIES, type StrategyName } from './strategy-tally.js';
import type { WholeSessionReport } from './whole-session-figures.js';

/** One strategy's headline over every session. */
interface Headline {
  readonly cost: number;
  /** The models without a price among the requests `cost` priced. */
  readonly unknown: readonly string[];
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
  const estimated = whole ? reports.reduce((n, r) => n + (r as WholeSessionReport).wholeSession.estimatedRequests, 0) : 0;
  const rows = STRATEGIES.map((s) =>
    rowHtml(s === 'recorded' ? (whole ? 'never compacting' : labels[s]) : labels[s], headline(reports, s, whole), escapeText),
  ).join('');
  const basis = whole
    ? 'over the whole session, as if the client never compacted, against the recorded session with its compaction, modelled as the strategies are (like for like)'
    : 'up to the first compaction, against the session as recorded';
  const notes = [
    `Replayed ${reports.length} session${reports.length === 1 ? '' : 's'}, ${requests.toLocaleString('en-US')} requests, at a window of ${windows} tokens; figures ${basis}.`,
    whole ? paidNote(reports as readonly WholeSessionReport[]) : '',
    estimated > 0 ? `The prompts of ${estimated} request(s) past a compaction are estimates (from bytes), and so are the costs they add to.` : '',
    "Runway: requests answered before the client compacts, over the recorded session's; '>=' the data ran out first (at least that); '~' an estimate past the data. '!': some prompts were refused as too long and never billed, so the cost is not comparable.",
  ].filter((l) => l !== '');
  return `<section class="summary"><h2>Summary</h2>${notes.map((l) => `<p>${escapeText(l)}</p>`).join('')}
<div class="scroll"><table><tr><th>strategy</th><th>cost</th><th>vs recorded</th><th>runway (vs recorded)</th></tr>${rows}</table></div></section>`;
}

/** What was paid for the sessions, and what the modelled baseline comes to against it. */
function paidNote(reports: readonly WholeSessionReport[]): string {
  const paid = reports.reduce((n, r) => n + r.wholeSession.baselines.paid.costUsd, 0);
  const modelled = reports.reduce((n, r) => n + r.wholeSession.baselines.recordedWithCompaction.costUsd, 0);
  const paidUnknown = [...new Set(reports.flatMap((r) => r.wholeSession.baselines.paid.unpricedModels))];
  const modelledUnknown = [...new Set(reports.flatMap((r) => r.wholeSession.baselines.recordedWithCompaction.unpricedModels))];
  const ratio = paid > 0 ? ` (${(modelled / paid).toFixed(2)}x paid)` : '';
  return (
    `Paid: ${dollarCell(paid, paidUnknown)}, the recorded usage of every request billed at the price table. ` +
    `The recorded session with its compaction, modelled as the strategies are: ${dollarCell(modelled, modelledUnknown)}${ratio}; "vs recorded" is against it.`
  );
}

function headline(reports: readonly SessionReport[], s: StrategyName, whole: boolean): Headline {
  let cost = 0;
  let base = 0;
  let refused = 0;
  const unknown = new Set<string>();
  const runways: Headline['runways'][number][] = [];
  for (const r of reports) {
    if (whole) {
      const w = (r as WholeSessionReport).strategies[s].wholeSession;
      cost += w.costUsd;
      for (const m of w.unpricedModels) unknown.add(m);
      base += (r as WholeSessionReport).wholeSession.baselines.recordedWithCompaction.costUsd;
      refused += w.refused;
      runways.push({ requests: w.runway.requests, ratio: w.runway.ratio, mark: w.runway.measured ? '' : '>=' });
    } else {
      const x = r.strategies[s];
      cost += x.costUsd;
      for (const m of r.unpricedModels) unknown.add(m);
      base += r.strategies.recorded.costUsd;
      refused += x.refused;
      runways.push({
        requests: x.runway.requests,
        ratio: x.runway.ratio,
        mark: x.runway.end === 'extrapolated' ? '~' : x.runway.end === 'not_reached' ? '>=' : '',
      });
    }
  }
  return { cost, unknown: [...unknown].sort(), base, refused, runways };
}

function rowHtml(label: string, h: Headline, escapeText: (s: string) => string): string {
  const warn = h.refused > 0 ? '!' : '';
  const vs = h.base > 0 ? `${h.cost >= h.base ? '+' : ''}${((h.cost / h.base - 1) * 100).toFixed(1)}%${warn}` : '-';
  const runways = runwayText(h.runways);
  return `<tr><td>${escapeText(label)}</td><td>${escapeText(dollarCell(h.cost, h.unknown))}${warn}</td><td>${escapeText(vs)}</td><td>${escapeText(runways)}</td></tr>`;
}

/** Each session's runway ratio, or over many sessions their range (a mark on an end that carries one). */
function runwayText(runways: Headline['runways']): string {
  // No ratio where the recorded runway was not measured (a manual compaction): the requests instead.
  const cell = (r: Headline['runways'][number]): string => (r.ratio === null ? `${r.mark}${r.requests} requests` : `${r.mark}${r.ratio.toFixed(2)}x`);
  const known = runways.filter((r) => r.ratio !== null).sort((a, b) => (a.ratio ?? 0) - (b.ratio ?? 0));
  if (runways.length <= 4 || known.length < 2) return runways.map(cell).join(', ');
  return `${cell(known[0]!)} to ${cell(known.at(-1)!)} over ${known.length} sessions`;
}
