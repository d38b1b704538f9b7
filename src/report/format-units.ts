/** Sizes, token counts, percentages and counts as a person reads them. Pure. */

const KIB = 1024;

/** `812 B`, `18.4 KiB`, `312 KiB`, `3.2 MiB`, `1.1 GiB`: powers of 1024, so named KiB, MiB, GiB, TiB. */
export function formatBytes(bytes: number): string {
  const sign = bytes < 0 ? '-' : '';
  const n = Math.abs(bytes);
  if (n < KIB) return `${sign}${Math.round(n)} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = n / KIB;
  let unit = 0;
  while (value >= KIB && unit < units.length - 1) {
    value /= KIB;
    unit += 1;
  }
  const shown = value < 100 ? value.toFixed(1) : Math.round(value).toString();
  return `${sign}${shown} ${units[unit]}`;
}

/** An estimate of tokens: `~812`, `~4.6k`, `~1.2M`. */
export function formatTokens(tokens: number): string {
  if (tokens < 1000) return `~${Math.round(tokens)}`;
  if (tokens < 1_000_000) return `~${(tokens / 1000).toFixed(tokens < 10_000 ? 1 : 0)}k`;
  return `~${(tokens / 1_000_000).toFixed(1)}M`;
}

/** A fraction as a percentage with one decimal: 0.7261 -> `72.6%`; null -> `-`. */
export function formatPercent(fraction: number | null): string {
  return fraction === null ? '-' : `${(Math.round(fraction * 1000) / 10).toFixed(1)}%`;
}

/** A whole number with thousands separators: `12,000`. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** `1 epoch`, `2 epochs`, `1,204 requests`. */
export function plural(n: number, noun: string): string {
  return `${formatCount(n)} ${noun}${n === 1 ? '' : 's'}`;
}
