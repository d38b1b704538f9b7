/**
 * A report's lines made to fit a width: a longer line is broken at spaces, never inside a word,
 * and goes on under its own value (`requests            40, ...` goes on under `40`), else two
 * columns in. A word longer than any line (a key, a path) stands whole on a line of its own,
 * since a cut one could not be pasted. Widths count characters (code points). Pure.
 */

/** Where a label ends and its value begins: the first run of two or more spaces after the line's first word, near its start. */
const LABEL = /^( *\S.{0,28}?) {2,}(?=\S)/;

/** The column a line's continuations start at: under its value when it has a label, else two past its own indent. */
export function hangingIndent(line: string): number {
  const label = LABEL.exec(line);
  if (label !== null) return label[0].length;
  return line.length - line.trimStart().length + 2;
}

/** One line as lines of at most `width` characters where its words allow, broken at spaces (runs of spaces kept elsewhere). */
export function fitLine(line: string, width: number): string[] {
  let rest = [...line];
  if (rest.length <= width) return [line];
  const lead = line.length - line.trimStart().length;
  // A continuation indented past half the width would leave too little room: two in from the line's own.
  const hang = hangingIndent(line);
  const indent = ' '.repeat(hang <= width / 2 ? hang : Math.min(lead + 2, Math.floor(width / 2)));
  const out: string[] = [];
  let start = lead;
  while (rest.length > width) {
    const cut = lastSpaceBefore(rest, width, start) ?? firstSpaceAfterWord(rest, start);
    if (cut === undefined) break;
    out.push(rest.slice(0, cut).join('').trimEnd());
    const tail = rest.slice(cut).join('').trimStart();
    rest = tail === '' ? [] : [...(indent + tail)];
    start = indent.length;
  }
  if (rest.length > 0) out.push(rest.join(''));
  return out;
}

/** Every line fitted to `width` (a line holding a newline is split first). */
export function fitLines(lines: readonly string[], width: number): string[] {
  return lines.flatMap((l) => l.split('\n')).flatMap((l) => fitLine(l, width));
}

// The last space at or before `width` with text before it (after `start`): the line up to it fits.
function lastSpaceBefore(chars: readonly string[], width: number, start: number): number | undefined {
  for (let i = Math.min(width, chars.length - 1); i > start; i -= 1) if (chars[i] === ' ' && chars[i - 1] !== ' ') return i;
  return undefined;
}

// A first word longer than the room: the break goes after it, so it stands whole.
function firstSpaceAfterWord(chars: readonly string[], start: number): number | undefined {
  for (let i = start; i < chars.length; i += 1) if (chars[i] === ' ') return i;
  return undefined;
}
