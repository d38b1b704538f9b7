/** Times as a person reads them: relative (`5m ago`) and absolute (local, to the second). Pure. */

/** How long before `nowMs` the ISO time `iso` was: `now`, `12s ago`, `5m ago`, `3h ago`, `4d ago`. */
export function formatAgo(iso: string | null, nowMs: number): string {
  if (iso === null) return '-';
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '?';
  const seconds = Math.floor((nowMs - then) / 1000);
  if (seconds < 1) return 'now';
  if (seconds < 60) return `${seconds}s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ago`;
  if (seconds < 48 * 3600) return `${Math.floor(seconds / 3600)}h ago`;
  return `${Math.floor(seconds / 86_400)}d ago`;
}

/** The ISO time `iso` in local time: `2026-11-30 05:56:54`. */
export function formatLocalTime(iso: string | null): string {
  if (iso === null) return '-';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '?';
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

/** Both: `2026-11-30 05:56:54 (3h ago)`. */
export function formatWhen(iso: string | null, nowMs: number): string {
  return iso === null ? '-' : `${formatLocalTime(iso)} (${formatAgo(iso, nowMs)})`;
}
