/**
 * Lines that fit a terminal: each wrapped at spaces to a width, its continuation lines indented,
 * a word never cut (a path longer than the width stands alone on its line). For the lines ctxshed
 * prints before a child takes the terminal (the banner), which must read whole at 80 columns.
 */

/** The width the banner is laid out to: the narrowest terminal it must read whole in. */
export const BANNER_WIDTH = 80;

/** How continuation lines start, so a wrapped line reads as one. */
const INDENT = '  ';

/** Each of `lines` wrapped to `width`, joined with newlines (no newline after the last). */
export function wrapLines(lines: readonly string[], width = BANNER_WIDTH): string {
  return lines.flatMap((line) => wrapLine(line, width)).join('\n');
}

/** One line wrapped to `width` at spaces; the lines after the first start with the indent. */
export function wrapLine(line: string, width = BANNER_WIDTH): string[] {
  const words = line.split(' ').filter((word) => word !== '');
  const out: string[] = [];
  let current = '';
  for (const word of words) {
    if (current === '') current = word;
    else if (current.length + 1 + word.length > width) {
      out.push(current);
      current = `${INDENT}${word}`;
    } else current = `${current} ${word}`;
  }
  if (current !== '') out.push(current);
  return out;
}
