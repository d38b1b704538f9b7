import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES, commandsFor } from '../../src/cli/command-table.js';

const nameOf = (command: { command?: string | readonly string[] | undefined }): string => String(command.command).split(' ')[0]!;

describe('commandsFor', () => {
  it('should load only the command its first word names', async () => {
    expect((await commandsFor(['statusline', '--state', 's'])).map(nameOf)).toEqual(['statusline']);
    expect((await commandsFor(['rescue', '--', 'claude', 'ls'])).map(nameOf)).toEqual(['rescue']);
    expect((await commandsFor(['unseal', 'abc'])).map(nameOf)).toEqual(['unseal']);
  });

  it('should load every command, in help order, for help, no command, a mistyped name or an option first', async () => {
    for (const argv of [['--help'], [], ['lss'], ['--state', 'x', 'ls']]) {
      expect((await commandsFor(argv)).map(nameOf)).toEqual(COMMAND_NAMES);
    }
  });

  it('should load no command for --version alone, and the named command for --version after one', async () => {
    expect(await commandsFor(['--version'])).toEqual([]);
    expect((await commandsFor(['ls', '--version'])).map(nameOf)).toEqual(['ls']);
    expect((await commandsFor(['--version', '--help'])).map(nameOf)).toEqual(COMMAND_NAMES);
  });

  it('should name each command as its module does', async () => {
    const all = await commandsFor([]);
    expect(all).toHaveLength(COMMAND_NAMES.length);
    for (const name of COMMAND_NAMES) expect((await commandsFor([name])).map(nameOf)).toEqual([name]);
  });
});
