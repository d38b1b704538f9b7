/**
 * One chart of the replay page (render-html.ts): a line per strategy over the main thread's
 * requests, as inline SVG that scales to its container (a viewBox, width 100%), numbers on both
 * axes at round steps, epochs marked, and a tooltip (`<title>`) on every line, point and mark.
 * Each line has its own dash pattern and width (chart-styles.ts): lines are told apart without
 * colour, and one drawn over another keeps it in view. Pure.
 */
import { niceTicks } from './nice-ticks.js';

/** The drawing's own units: the SVG scales them to the page's width. */
const W = 760;
const H = 290;
const PAD = { left: 64, right: 16, top: 28, bottom: 44 };

/** One line of the chart. */
export interface ChartLine {
  readonly key: string;
  readonly label: string;
  readonly color: string;
  /** An SVG `stroke-dasharray`, `none` for solid. */
  readonly dash: string;
  readonly width: number;
  readonly values: readonly number[];
}

/** What a chart draws. */
export interface ChartSpec {
  readonly kind: string;
  readonly title: string;
  readonly lines: readonly ChartLine[];
  /** The top of the y axis, before it is rounded up to a tick. */
  readonly yMax: number;
  /** A y value as its tick and tooltips show it; `step`: the ticks' step, for as many digits as they need. */
  readonly yLabel: (v: number, step: number) => string;
  /** Dashed vertical marks (epochs), by line key: indexes into the values. */
  readonly marks: Readonly<Record<string, readonly number[]>>;
  readonly markColor: (key: string) => string;
  /** A dashed horizontal line (the client's compaction point), and its label. */
  readonly limit?: { readonly value: number; readonly label: string };
}

/** The chart as an `<svg>` element. */
export function renderChart(spec: ChartSpec, escapeText: (s: string) => string): string {
  const n = Math.max(2, ...spec.lines.map((l) => l.values.length));
  const yTicks = niceTicks(spec.yMax, 4);
  const top = yTicks.at(-1) ?? 1;
  const step = yTicks[1] ?? top;
  const yLabel = (v: number): string => spec.yLabel(v, step);
  const x = (i: number): number => PAD.left + (i / (n - 1)) * (W - PAD.left - PAD.right);
  const y = (v: number): number => H - PAD.bottom - (Math.min(v, top) / top) * (H - PAD.top - PAD.bottom);
  const yAxis = yTicks
    .map(
      (t) =>
        `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${f(y(t))}" y2="${f(y(t))}" stroke="#e4e4e4"/><text x="${PAD.left - 6}" y="${f(y(t) + 4)}" text-anchor="end" font-size="12">${escapeText(yLabel(t))}</text>`,
    )
    .join('');
  // Request numbers from 1: ticks at round steps within 1..n.
  const xAxis = niceTicks(n, 6)
    .map((t) => Math.max(1, t))
    .filter((t, i, all) => t <= n && all.indexOf(t) === i)
    .map(
      (t) =>
        `<line x1="${f(x(t - 1))}" x2="${f(x(t - 1))}" y1="${H - PAD.bottom}" y2="${H - PAD.bottom + 4}" stroke="#888"/><text x="${f(x(t - 1))}" y="${H - PAD.bottom + 17}" text-anchor="middle" font-size="12">${t}</text>`,
    )
    .join('');
  const marks = Object.entries(spec.marks)
    .flatMap(([key, at]) =>
      at.map(
        (i) =>
          `<line class="epoch" data-strategy="${key}" x1="${f(x(i))}" x2="${f(x(i))}" y1="${PAD.top}" y2="${H - PAD.bottom}" stroke="${spec.markColor(key)}" stroke-dasharray="4 3"><title>${escapeText(`${key} epoch at request ${i + 1}`)}</title></line>`,
      ),
    )
    .join('');
  const limit =
    spec.limit === undefined
      ? ''
      : `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${f(y(spec.limit.value))}" y2="${f(y(spec.limit.value))}" stroke="#999" stroke-dasharray="2 2"><title>${escapeText(spec.limit.label)}</title></line><text x="${W - PAD.right}" y="${f(y(spec.limit.value) - 4)}" text-anchor="end" font-size="12" fill="#777">${escapeText(spec.limit.label)}</text>`;
  // Dots drawn where there are few; over many they are only there for their tooltips.
  const dotOpacity = n <= 40 ? 0.5 : 0;
  const lines = spec.lines.map((l) => lineOf(l, { x, y, label: yLabel, dotOpacity }, escapeText)).join('');
  return `<svg class="chart" data-chart="${spec.kind}" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="100%" preserveAspectRatio="xMidYMid meet" role="img" aria-label="${escapeText(spec.title)}">
<text x="${PAD.left}" y="16" font-size="14" font-weight="600">${escapeText(spec.title)}</text>${yAxis}<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${H - PAD.bottom}" y2="${H - PAD.bottom}" stroke="#888"/>${xAxis}${limit}${marks}${lines}
<text x="${f((PAD.left + W - PAD.right) / 2)}" y="${H - 6}" text-anchor="middle" font-size="12">main-thread request</text></svg>`;
}

/** A strategy's line, its points each with a tooltip. */
function lineOf(
  l: ChartLine,
  { x, y, label, dotOpacity }: { x: (i: number) => number; y: (v: number) => number; label: (v: number) => string; dotOpacity: number },
  escapeText: (s: string) => string,
): string {
  const points = l.values.map((v, i) => `${f(x(i))},${f(y(v))}`).join(' ');
  const dots = l.values
    .map(
      (v, i) =>
        `<circle cx="${f(x(i))}" cy="${f(y(v))}" r="3" fill="${l.color}" fill-opacity="${dotOpacity}"><title>${escapeText(`${l.label}, request ${i + 1}: ${label(v)}`)}</title></circle>`,
    )
    .join('');
  const dash = l.dash === 'none' ? '' : ` stroke-dasharray="${l.dash}"`;
  return `<g class="series" data-strategy="${l.key}"><polyline class="strategy" data-strategy="${l.key}" fill="none" stroke="${l.color}" stroke-width="${l.width}"${dash} stroke-linejoin="round" points="${points}"><title>${escapeText(l.label)}</title></polyline>${dots}</g>`;
}

function f(v: number): string {
  return v.toFixed(1);
}
