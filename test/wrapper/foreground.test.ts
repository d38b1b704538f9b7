import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isTerminalForeground, parseProcStat } from '../../src/wrapper/foreground.js';
import { createFixtureCommands, type FixtureCommands } from './helpers/fixture-commands.js';
import { killStartedProcesses, startProcess } from './helpers/run-wrapper.js';
import { HAS_SCRIPT, startOnTerminal } from './helpers/terminal.js';

const PID_LINE = /pid (\d+)\r?\n/;

const statLine = (comm: string, pgrp: number, tpgid: number): string =>
  `4552 (${comm}) S 4492 ${pgrp} 1930 34816 ${tpgid} 4194304 99 0 0 0 0 0 0 0 20 0 1 0 33507\n`;

describe('parseProcStat', () => {
  it.each([
    { name: 'a plain line', text: statLine('node', 44, 44), expected: { pgrp: 44, tpgid: 44 } },
    { name: 'no controlling terminal', text: statLine('node', 7, -1), expected: { pgrp: 7, tpgid: -1 } },
    { name: ') and spaces in the name', text: statLine('a) (b ) 1 2', 5, 6), expected: { pgrp: 5, tpgid: 6 } },
    { name: 'no parenthesis', text: '4552 node S 1 2 3 4 5', expected: undefined },
    { name: 'a cut-off line', text: '4552 (node) S 4492 4492', expected: undefined },
    { name: 'a non-number', text: '4552 (node) S 4492 x 1930 34816 7 0', expected: undefined },
    { name: 'an empty string', text: '', expected: undefined },
  ])('should read $name', ({ text, expected }) => {
    expect(parseProcStat(text)).toEqual(expected);
  });

  it('should read pgrp and tpgid whatever the command name holds', () => {
    fc.assert(
      fc.property(fc.string(), fc.nat(), fc.integer({ min: -1 }), (comm, pgrp, tpgid) => {
        expect(parseProcStat(statLine(comm, pgrp, tpgid))).toEqual({ pgrp, tpgid });
      }),
    );
  });

  it('should never throw', () => {
    fc.assert(fc.property(fc.string(), (text) => void parseProcStat(text)));
  });
});

describe('isTerminalForeground', () => {
  it.each([
    { name: 'true when its group owns the terminal', text: statLine('x', 40, 40), expected: true },
    { name: 'false when another group owns it', text: statLine('x', 40, 41), expected: false },
    { name: 'false without a terminal', text: statLine('x', 40, -1), expected: false },
    { name: 'false for a malformed line', text: 'garbage', expected: false },
  ])('should be $name', ({ text, expected }) => {
    expect(isTerminalForeground(1234, () => text)).toBe(expected);
  });

  it('should be false when /proc cannot be read', () => {
    const unreadable = (): string => {
      throw Object.assign(new Error('no /proc here'), { code: 'ENOENT' });
    };
    expect(isTerminalForeground(1234, unreadable)).toBe(false);
  });

  it.runIf(process.platform === 'linux')('should ask /proc about the given pid', () => {
    const asked: number[] = [];
    isTerminalForeground(process.pid, (pid) => {
      asked.push(pid);
      return statLine('node', 1, 1);
    });
    expect(asked).toEqual([process.pid]);
    expect(typeof isTerminalForeground(process.pid)).toBe('boolean');
  });
});

describe.runIf(HAS_SCRIPT)('isTerminalForeground on a real terminal', () => {
  let fixtures: FixtureCommands;
  beforeAll(async () => {
    fixtures = await createFixtureCommands();
  });
  afterAll(() => fixtures.remove());
  afterEach(() => killStartedProcesses());

  it.each([
    { name: 'true for the foreground group of a pty', start: startOnTerminal, expected: true },
    { name: 'false for a process with no terminal', start: startProcess, expected: false },
  ])('should be $name', async ({ start, expected }) => {
    // Arrange
    const run = start(['wait-for-line'], fixtures.env);
    const said = await run.waitForStdout(PID_LINE);
    const pid = Number(PID_LINE.exec(said)?.[1]);

    // Act
    const foreground = isTerminalForeground(pid);

    // Assert
    run.child.stdin?.write('\n');
    expect((await run.done).code).toBe(0);
    expect(foreground).toBe(expected);
  });
});
