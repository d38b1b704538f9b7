/**
 * Laying a replay's text out to a terminal's width (render-table.ts): columns aligned, a table
 * cut to the columns that fit, and long lines wrapped at spaces. Widths count UTF-16 units, which
 * is one column for every character a replay prints (ASCII, the sparkline's blocks). Pure.
 */

/** The width a replay is laid out to when stdout is not a terminal and `COLUMNS` is unset. */
export const DEFAULT_TEXT_WIDTH = 120;
/** The narrowest width a replay is laid out to: a narrower terminal gets this and wraps. */
export const MIN_TEXT_WIDTH = 60;

/** How the terminal table is laid out. */
export interface TextLayout {
  /** No line is longer than this. */
  readonly width: number;
  /** `--compact`: the compact form of every table, whatever the width. */
  readonly compact: boolean;
}

/** The layout when none is asked for: the default width, each table in full where it fits. */
export const DEFAULT_LAYOUT: TextLayout = { width: DEFAULT_TEXT_WIDTH, compact: false };

/** A table: its column names and its rows, one cell per column. */
export interface TextTable {
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
  /** Columns aligned left (the first always is). */
  readonly left?: readonly number[];
}

/** The table's lines, two spaces in, columns two apart: the first (and `left`) left-aligned, the rest right. */
export function alignTable(table: TextTable): string[] {
  const { header, rows } = table;
  const left = new Set([0, ...(table.left ?? [])]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const fmt = (cells: readonly string[]): string =>
    `  ${cells.map((cell, i) => (left.has(i) ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ')}`.trimEnd();
  return [fmt(header), ...rows.map(fmt)];
}

/** A table's compact form: the columns it keeps, in order, and their names when shorter ones are wanted. */
export interface CompactForm {
  readonly columns: readonly number[];
  readonly header?: readonly string[];
}

/** The same table with only the columns of `compact`, in that order. */
export function pickColumns(table: TextTable, compact: CompactForm): TextTable {
  const keep = compact.columns;
  const left = (table.left ?? []).map((i) => keep.indexOf(i)).filter((i) => i >= 0);
  return {
    header: compact.header ?? keep.map((i) => table.header[i] ?? ''),
    rows: table.rows.map((r) => keep.map((i) => r[i] ?? '')),
    left,
  };
}

/** A table laid out: its lines, and the columns of the full table it shows. */
export interface FittedTable {
  readonly lines: string[];
  readonly columns: readonly number[];
}

/** The full table where it fits `layout` (and is not `--compact`), else its compact columns. */
export function fitTable(table: TextTable, compact: CompactForm, layout: TextLayout): FittedTable {
  if (!layout.compact) {
    const full = alignTable(table);
    if (widest(full) <= layout.width) return { lines: full, columns: table.header.map((_, i) => i) };
  }
  return { lines: alignTable(pickColumns(table, compact)), columns: compact.columns };
}

/** A legend line of what the shown columns mean (`meanings` by column, joined in column order), and any notes after. */
export function legendLine(meanings: Readonly<Record<number, string>>, shown: readonly number[], notes: readonly string[] = []): string {
  const said = [...shown].sort((a, b) => a - b).flatMap((i) => (meanings[i] === undefined ? [] : [meanings[i]]));
  return `  ${[...said, ...notes].join('; ')}`;
}

/** The longest line's length. */
export function widest(lines: readonly string[]): number {
  return Math.max(0, ...lines.map((l) => l.length));
}

/**
 * One line as lines of at most `width`: broken at spaces, each continuation indented two more
 * than the line; a word longer than the room is cut.
 */
export function wrapLine(line: string, width: number): string[] {
  if (line.length <= width) return [line];
  const indent = ' '.repeat(Math.min(line.length - line.trimStart().length + 2, Math.floor(width / 2)));
  const out: string[] = [];
  let rest = line;
  while (rest.length > width) {
    // A break inside the line's own leading spaces would make no progress.
    const lead = rest.length - rest.trimStart().length;
    const cut = rest.lastIndexOf(' ', width);
    const at = cut > lead ? cut : width;
    out.push(rest.slice(0, at).trimEnd());
    rest = indent + rest.slice(at).trimStart();
  }
  if (rest.trim() !== '') out.push(rest);
  return out;
}

/** Every line wrapped to `width` (lines holding a newline are split first). */
export function wrapLines(lines: readonly string[], width: number): string[] {
  return lines.flatMap((l) => l.split('\n')).flatMap((l) => wrapLine(l, width));
}
