/**
 * A table of the replay page (render-html.ts) that fits the page's width: in full on a wide
 * window, and on a narrow one (under `NARROW_PX`) only its `narrow` columns, as the terminal's
 * compact form does (the page's CSS hides the others). Cells come as HTML, escaped by the caller. Pure.
 */

/** Under this window width the page shows each table's narrow columns only. */
export const NARROW_PX = 1000;

/** The CSS the tables need: the class `wide` marks the columns a narrow window does not show. */
export const TABLE_CSS =
  'table{border-collapse:collapse;margin:8px 0;font-size:85%}td,th{padding:3px 6px;text-align:right;border-bottom:1px solid #ddd}' +
  'td{white-space:nowrap}th{vertical-align:bottom;font-weight:600}td:first-child,th:first-child{text-align:left}' +
  `.scroll{overflow-x:auto;max-width:100%}@media (max-width:${NARROW_PX}px){.wide{display:none}table{font-size:80%}}`;

/** One table: its header and rows as HTML cells, the columns a narrow window shows (all when absent), and a class. */
export interface HtmlTable {
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
  readonly narrow?: readonly number[];
  readonly className?: string;
}

/** The table in its scroll box. */
export function htmlTable(table: HtmlTable): string {
  const narrow = table.narrow === undefined ? undefined : new Set(table.narrow);
  const cls = (i: number): string => (narrow === undefined || narrow.has(i) ? '' : ' class="wide"');
  const head = table.header.map((h, i) => `<th${cls(i)}>${h}</th>`).join('');
  const rows = table.rows.map((r) => `<tr>${r.map((cell, i) => `<td${cls(i)}>${cell}</td>`).join('')}</tr>`).join('');
  return `<div class="scroll"><table${table.className === undefined ? '' : ` class="${table.className}"`}><tr>${head}</tr>${rows}</table></div>`;
}
