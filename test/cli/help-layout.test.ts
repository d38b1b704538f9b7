/** `--help` prints every example command whole: never broken mid-command into yargs' narrow left column. */
import { describe, expect, it } from 'vitest';
import { wholeExamples } from '../../src/cli/help-examples.js';
import { COMMAND_NAMES } from '../../src/cli/command-table.js';
import { runCli } from './cli-run.js';

/** The lines of the `Examples:` section. */
function exampleLines(help: string): string[] {
  const section = help.split('\nExamples:\n')[1] ?? '';
  return section.split('\n').filter((line) => line.trim() !== '');
}

describe('wholeExamples', () => {
  it("should keep yargs' two columns when every command fits its half of the width", () => {
    expect(wholeExamples([['$0 ls', 'One line per conversation']], 80)).toEqual([['$0 ls', 'One line per conversation']]);
  });

  it('should print each command on a line of its own under its description as a comment when one does not fit', () => {
    const examples = [
      ['$0 ls', 'One line per conversation'],
      ['$0 inflate small.json --state /tmp/st > original.json', 'Put every elided tool result back, each one byte for byte'],
    ] as const;

    expect(wholeExamples(examples, 40)).toEqual([
      ['# One line per conversation', ''],
      ['$0 ls', ''],
      ['# Put every elided tool result back,', ''],
      ['# each one byte for byte', ''],
      ['$0 inflate small.json --state /tmp/st > original.json', ''],
    ]);
  });
});

describe('--help examples', () => {
  // One --help per command, each a process of its own: longer than the default timeout on a loaded machine.
  it('should print every example of every command whole at 80 columns', { timeout: 180_000 }, async () => {
    for (const command of ['', ...COMMAND_NAMES]) {
      const help = await runCli([...(command === '' ? [] : [command]), '--help'], { env: { ...process.env, COLUMNS: '80' } });
      const lines = exampleLines(help.stdout);

      // A command line names ctxshed, a description is a comment or sits in the right-hand column;
      // a line that starts two spaces in with anything else is a command cut in two.
      expect(lines.length, `${command} --help`).toBeGreaterThan(0);
      for (const line of lines) expect({ command, line, whole: /^ {2}# |^ {2}(\S.*)?\bctxshed\b|^ {4,}\S/.test(line) }).toEqual({ command, line, whole: true });
    }
  });

  it("should print inflate's example as one line, at 80 columns and at the default width", async () => {
    for (const columns of ['80', '']) {
      const help = await runCli(['inflate', '--help'], { env: { ...process.env, COLUMNS: columns } });

      expect(help.stdout).toContain('\n  ctxshed inflate small.json --state /tmp/st > original.json\n');
    }
  });
});
