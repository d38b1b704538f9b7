/**
 * `--help`'s width and its examples laid out whole. yargs puts an example's command in a column half
 * the help's width wide and wraps a longer one mid-command, which then cannot be copied; when one of
 * a command's examples would not fit there, every example of the command prints its command on a
 * line of its own, under its description as a shell comment (test/cli/help-layout.test.ts).
 */
import { textWidth } from './replay-input.js';

/** `--help` is never laid out wider than this, however wide the terminal. */
const MAX_HELP_WIDTH = 100;

/** yargs' left-hand margin and the gap before an example's description. */
const EXAMPLE_PADDING = 4;

/** An example: the command (`$0` for ctxshed) and what it does. */
export type Example = readonly [command: string, description: string];

/** The width `--help` is laid out to: the terminal's, or `COLUMNS` off a terminal, at most 100. */
export function helpWidth(): number {
  return Math.min(MAX_HELP_WIDTH, textWidth(process.stdout));
}

/** `examples` as yargs' `.example()` takes them, each command whole at `width`. */
export function wholeExamples(examples: readonly Example[], width = helpWidth()): Array<[string, string?]> {
  const column = Math.floor(width / 2);
  if (examples.every(([command]) => shown(command).length <= column)) return examples.map(([command, description]) => [command, description]);
  return examples.flatMap(([command, description]) => [
    ...commentLines(description, width - EXAMPLE_PADDING).map((line): [string, string] => [line, '']),
    [command, ''],
  ]);
}

// The command as help prints it.
function shown(command: string): string {
  return command.replace(/\$0/g, 'ctxshed');
}

// A description as shell comment lines no wider than `width`, broken at spaces.
function commentLines(description: string, width: number): string[] {
  const lines: string[] = [];
  let line = '#';
  for (const word of description.split(' ')) {
    if (line !== '#' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = '#';
    }
    line = `${line} ${word}`;
  }
  return [...lines, line];
}
