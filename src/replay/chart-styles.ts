/**
 * How each strategy is drawn on the replay page's charts (render-chart.ts): a colour, and, so that
 * no line is told by colour alone, a dash pattern of its own; and a width that narrows in the
 * order the lines are drawn, so a line drawn over another that runs the same course (rescue on the
 * recorded session before its epoch) leaves the one under it showing at both edges. Pure.
 */
import type { StrategyName } from './strategy-tally.js';

/** One strategy's stroke. */
export interface LineStyle {
  readonly color: string;
  /** An SVG `stroke-dasharray`; `none` for a solid line. */
  readonly dash: string;
  readonly width: number;
}

/** Each strategy's stroke, in drawing order (STRATEGIES), each narrower than the one before. */
export const LINE_STYLES: Readonly<Record<StrategyName, LineStyle>> = {
  recorded: { color: '#555555', dash: 'none', width: 5 },
  rescue: { color: '#1f77b4', dash: '10 4', width: 4 },
  shed: { color: '#9467bd', dash: '2 3', width: 3 },
  perRequest: { color: '#d62728', dash: '12 3 3 3', width: 2.2 },
  clearToolUses: { color: '#2ca02c', dash: '5 2', width: 1.4 },
};

/** A short sample of a strategy's line, for the legend. */
export function lineSample(style: LineStyle): string {
  const dash = style.dash === 'none' ? '' : ` stroke-dasharray="${style.dash}"`;
  return `<svg class="sample" width="42" height="12" viewBox="0 0 42 12" aria-hidden="true"><line x1="1" y1="6" x2="41" y2="6" stroke="${style.color}" stroke-width="${Math.min(style.width, 4)}"${dash}/></svg>`;
}
