/** Axis ticks at round numbers (1, 2, 2.5 or 5 times a power of ten) for the replay page's charts. Pure. */

/** The round step closest above `raw`: 1, 2, 2.5 or 5 times a power of ten. */
export function niceStep(raw: number): number {
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].find((m) => m * power >= raw - 1e-12) ?? 10;
  return step * power;
}

/**
 * Ticks from 0 at a round step, about `count` of them, the last at or above `max` (so the axis
 * ends on a round number): `niceTicks(14.54, 4)` is 0, 5, 10, 15.
 */
export function niceTicks(max: number, count = 4): number[] {
  const step = niceStep(max / Math.max(1, count));
  const ticks: number[] = [];
  for (let i = 0; ; i++) {
    // Rounded to the step's digits, so 0.1 * 3 is 0.3 and not 0.30000000000000004.
    const v = Number((i * step).toPrecision(12));
    ticks.push(v);
    if (v >= max || i > 100) break;
  }
  return ticks;
}
