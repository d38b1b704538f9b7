/** Aligned plain-text tables that fit a width, and text made safe to print in one cell. Pure. */

/** The widest a report line gets. */
export const REPORT_WIDTH = 100;

/** A column: its header, which side it aligns to, and whether it takes the room left over. */
export interface Column {
  readonly header: string;
  readonly align?: 'left' | 'right';
  /** The one column that shrinks (truncated with `…`) so the table fits. */
  readonly flex?: boolean;
}

const GAP = '  ';
const MIN_FLEX_WIDTH = 8;

/**
 * The table as lines: a header row, then one line per row, columns separated by two spaces and
 * trailing spaces trimmed. The flex column gets what is left of `width` (at least 8 characters).
 */
export function renderTable(columns: readonly Column[], rows: readonly (readonly string[])[], width = REPORT_WIDTH): string[] {
  const cells = [columns.map((c) => c.header), ...rows.map((row) => columns.map((_, i) => oneLine(row[i] ?? '')))];
  const widths = columns.map((_, i) => Math.max(...cells.map((row) => charLength(row[i] ?? ''))));
  const flex = columns.findIndex((c) => c.flex === true);
  if (flex >= 0) {
    const others = widths.reduce((total, w, i) => (i === flex ? total : total + w), 0) + GAP.length * (columns.length - 1);
    widths[flex] = Math.min(widths[flex] ?? 0, Math.max(MIN_FLEX_WIDTH, width - others));
  }
  return cells.map((row) =>
    row
      .map((cell, i) => {
        const w = widths[i] ?? 0;
        const text = truncate(cell, w);
        const pad = ' '.repeat(Math.max(0, w - charLength(text)));
        return columns[i]?.align === 'right' ? pad + text : text + pad;
      })
      .join(GAP)
      .trimEnd(),
  );
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
