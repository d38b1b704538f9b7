import { EventEmitter } from 'node:events';
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { HELD_SIGNALS, holdTerminalSignals } from '../../src/wrapper/hold-terminal-signals.js';

describe('holdTerminalSignals', () => {
  it('should listen for ^C and ^\\ until released, and then not at all', () => {
    // Arrange
    const source = new EventEmitter();

    // Act
    const release = holdTerminalSignals(source);
    const whileHeld = HELD_SIGNALS.map((signal) => source.listenerCount(signal));
    release();
    release();

    // Assert
    expect(whileHeld).toEqual([1, 1]);
    expect(HELD_SIGNALS.map((signal) => source.listenerCount(signal))).toEqual([0, 0]);
    expect(source.listenerCount('SIGTERM')).toBe(0);
  });

  it('should keep a real process alive through SIGINT while held, and let SIGINT end it after', async () => {
    // Arrange: a node process that holds, says so, and waits to be told to release.
    const moduleUrl = new URL('../../src/wrapper/hold-terminal-signals.ts', import.meta.url).href;
    const script = [
      `const { holdTerminalSignals } = await import(${JSON.stringify(moduleUrl)});`,
      'const release = holdTerminalSignals();',
      "process.stdout.write('held\\n');",
      "process.stdin.once('data', () => { release(); process.stdout.write('released\\n'); });",
      'setInterval(() => {}, 1000);',
    ].join('\n');
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
    const lines: string[] = [];
    const waitFor = (line: string): Promise<void> =>
      new Promise((resolve) => {
        const check = (): void => {
          if (lines.includes(line)) resolve();
          else child.stdout.once('data', (chunk: Buffer) => (lines.push(...chunk.toString().split('\n')), check()));
        };
        check();
      });
    const ended = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));

    // Act
    await waitFor('held');
    child.kill('SIGINT');
    child.kill('SIGQUIT');
    // Signals reach node through libuv's signal pipe, unordered with stdin: let them land first.
    await new Promise((resolve) => setTimeout(resolve, 300));
    child.stdin.write('go\n');
    await waitFor('released');
    const aliveAfterPresses = child.exitCode === null && child.signalCode === null;
    child.kill('SIGINT');

    // Assert
    expect(aliveAfterPresses).toBe(true);
    expect(await ended).toBe('SIGINT');
  });
});
