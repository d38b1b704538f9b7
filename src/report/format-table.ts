/** Aligned plain-text tables that fit a width, and text made safe to print in one cell. Pure. */

/**
 * The width a report is laid out to when none is given: the CLI gives the terminal's, else
 * `COLUMNS`, else this (as `replay` does, src/cli/replay-input.ts `textWidth`).
 */
export const REPORT_WIDTH = 120;

/** A column: its header, which side it aligns to, whether it takes the room left over, and when it gives way. */
export interface Column {
  readonly header: string;
  readonly align?: 'left' | 'right';
  /** The one column that takes the room left over: its text is cut with `…` (after `wrap` lines) so the table fits. */
  readonly flex?: boolean;
  /** The flex column's narrowest: a table that would squeeze it more leaves out a `drop` column instead (default 8). */
  readonly min?: number;
  /** The flex column's text goes on over at most this many lines, broken at spaces, before it is cut (default 1). */
  readonly wrap?: number;
  /** While the table is wider than the width, the shown column with the highest `drop` is left out; one without never is. */
  readonly drop?: number;
}

/** A table laid out to a width: its lines, and the headers of the columns left out for want of room. */
export interface FittedTable {
  readonly lines: string[];
  readonly dropped: string[];
}

const GAP = '  ';
const MIN_FLEX_WIDTH = 8;

/**
 * The table as lines: a header row, then each row (more than one line where the flex column
 * wraps), columns separated by two spaces and trailing spaces trimmed. While it is wider than
 * `width` with the flex column at its narrowest, the `drop` columns give way, highest first; the
 * flex column then gets what is left of `width`.
 */
export function fitTable(columns: readonly Column[], rows: readonly (readonly string[])[], width = REPORT_WIDTH): FittedTable {
  const cells = rows.map((row) => columns.map((_, i) => oneLine(row[i] ?? '')));
  const natural = columns.map((c, i) => Math.max(charLength(c.header), ...cells.map((row) => charLength(row[i] ?? ''))));
  const flex = columns.findIndex((c) => c.flex === true);
  const narrowest = (i: number): number => (i === flex ? Math.min(natural[i] ?? 0, columns[i]?.min ?? MIN_FLEX_WIDTH) : (natural[i] ?? 0));
  const needs = (shown: readonly number[]): number => shown.reduce((total, i) => total + narrowest(i), 0) + GAP.length * (shown.length - 1);
  let shown = columns.map((_, i) => i);
  while (needs(shown) > width) {
    const victim = shown.filter((i) => columns[i]?.drop !== undefined).sort((a, b) => (columns[b]?.drop ?? 0) - (columns[a]?.drop ?? 0))[0];
    if (victim === undefined) break;
    shown = shown.filter((i) => i !== victim);
  }
  const widths = shown.map((i) => natural[i] ?? 0);
  const at = shown.indexOf(flex);
  if (at >= 0) widths[at] = Math.min(natural[flex] ?? 0, Math.max(narrowest(flex), width - (needs(shown) - narrowest(flex))));
  const line = (texts: readonly string[]): string =>
    texts
      .map((text, k) => {
        const pad = ' '.repeat(Math.max(0, (widths[k] ?? 0) - charLength(text)));
        return columns[shown[k]!]?.align === 'right' ? pad + text : text + pad;
      })
      .join(GAP)
      .trimEnd();
  const header = line(shown.map((i, k) => truncate(columns[i]?.header ?? '', widths[k] ?? 0)));
  const body = cells.flatMap((row) => {
    const flowed = at < 0 ? [] : flowCell(row[flex] ?? '', widths[at] ?? 0, columns[flex]?.wrap ?? 1);
    const first = line(shown.map((i, k) => (k === at ? (flowed[0] ?? '') : truncate(row[i] ?? '', widths[k] ?? 0))));
    return [first, ...flowed.slice(1).map((more) => line(shown.map((_, k) => (k === at ? more : ''))))];
  });
  return { lines: [header, ...body], dropped: columns.filter((_, i) => !shown.includes(i)).map((c) => c.header) };
}

/** The table's lines, laid out as `fitTable` does. */
export function renderTable(columns: readonly Column[], rows: readonly (readonly string[])[], width = REPORT_WIDTH): string[] {
  return fitTable(columns, rows, width).lines;
}

/** A line naming the columns a table left out for want of room, or none when it left none out. */
export function droppedNote(dropped: readonly string[]): string[] {
  if (dropped.length === 0) return [];
  return [`(left out at this width: ${dropped.join(', ')}; --json has every column)`];
}

/**
 * A cell's one-line text over at most `lines` lines of `width`, broken at spaces; what is left
 * after the last line is cut with `…`, and so is a word longer than a line.
 */
function flowCell(text: string, width: number, lines: number): string[] {
  if (charLength(text) <= width || lines <= 1) return [truncate(text, width)];
  const out: string[] = [];
  let line = '';
  const words = text.split(' ');
  for (let w = 0; w < words.length; w += 1) {
    const word = words[w]!;
    const next = line === '' ? word : `${line} ${word}`;
    if (charLength(next) <= width) {
      line = next;
      continue;
    }
    if (line !== '') out.push(line);
    if (out.length === lines - 1) {
      out.push(truncate(words.slice(w).join(' '), width));
      return out;
    }
    line = truncate(word, width);
  }
  out.push(line);
  return out;
}

/** `text` cut to `max` characters, ending in `…` when it was longer. */
export function truncate(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  if (max <= 1) return chars.slice(0, max).join('');
  return `${chars.slice(0, max - 1).join('')}…`;
}

/**
 * `text` on one line and safe for a terminal: runs of whitespace become one space and control
 * characters (an escape sequence in a prompt could move the cursor) become `?`.
 */
export function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text
    .replace(/\s+/g, ' ')
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, '?')
    .trim();
}

/**
 * A first prompt as a person wants to see it: without the `<system-reminder>` blocks Claude Code
 * puts before the user's words. When nothing else is left, the prompt as it was.
 */
export function promptForDisplay(prompt: string): string {
  const words = oneLine(prompt.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, ' '));
  return words === '' ? oneLine(prompt) : words;
}

function charLength(text: string): number {
  return [...text].length;
}

/**
 * `text` (made one line) broken at spaces into lines of at most `width` characters, the first
 * after `first` and the rest after `indent`; a word longer than a line is cut.
 */
export function wrapText(text: string, width: number, first: string, indent: string): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of oneLine(text).split(' ')) {
    const sep = empty ? '' : ' ';
    if (charLength(line) + sep.length + charLength(word) <= width) {
      line += sep + word;
      empty = false;
      continue;
    }
    if (!empty) {
      lines.push(line);
      line = indent;
    }
    line += truncate(word, Math.max(1, width - charLength(line)));
    empty = false;
  }
  lines.push(line);
  return lines;
}
