/** A fullness series as one line of block characters. Pure. */

const BARS = '▁▂▃▄▅▆▇█';

/** `values` (fractions of the window, 0..1) squeezed into at most `width` characters (max of each bucket). */
export function sparkline(values: readonly number[], width: number): string {
  if (values.length === 0) return '';
  const buckets = Math.min(width, values.length);
  let out = '';
  for (let b = 0; b < buckets; b++) {
    const from = Math.floor((b * values.length) / buckets);
    const to = Math.max(from + 1, Math.floor(((b + 1) * values.length) / buckets));
    const peak = Math.max(...values.slice(from, to));
    const level = Math.min(BARS.length - 1, Math.max(0, Math.floor(peak * BARS.length)));
    out += BARS[level] ?? '';
  }
  return out;
}
