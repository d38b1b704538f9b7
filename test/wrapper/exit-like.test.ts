import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { exitLike, SIGNAL_FALLBACK_DELAY_MS, type ExitTarget } from '../../src/wrapper/exit-like.js';
import type { ChildOutcome } from '../../src/wrapper/run-child.js';
import { createFixtureCommands, type FixtureCommands } from './helpers/fixture-commands.js';
import { runWrapper } from './helpers/run-wrapper.js';

/** A process double that records, in order, what exitLike asked of it. */
function recordingProcess(options: { killThrows?: boolean } = {}): ExitTarget & {
  calls: string[];
} {
  const calls: string[] = [];
  return {
    pid: 4242,
    calls,
    exit: (code: number): never => {
      calls.push(`exit ${code}`);
      return undefined as never;
    },
    kill: (pid, signal) => {
      calls.push(`kill ${pid} ${signal}`);
      if (options.killThrows === true) throw new Error('EPERM');
      return true;
    },
    on: (signal) => calls.push(`on ${signal}`),
    removeAllListeners: (signal) => calls.push(`removeAllListeners ${signal}`),
  };
}

describe('exitLike', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each<{ outcome: ChildOutcome; code: number }>([
    { outcome: { kind: 'exited', code: 0 }, code: 0 },
    { outcome: { kind: 'exited', code: 3 }, code: 3 },
    { outcome: { kind: 'spawn-failed', code: 127, message: 'command not found' }, code: 127 },
    { outcome: { kind: 'spawn-failed', code: 126, message: 'permission denied' }, code: 126 },
  ])('should exit with $code for $outcome.kind', ({ outcome, code }) => {
    const proc = recordingProcess();

    exitLike(outcome, proc);

    expect(proc.calls).toEqual([`exit ${code}`]);
  });

  it('should restore the default action, then raise the same signal on itself', () => {
    // Arrange
    vi.useFakeTimers();
    const proc = recordingProcess();

    // Act
    exitLike({ kind: 'signaled', signal: 'SIGTERM' }, proc);

    // Assert
    expect(proc.calls).toEqual(['on SIGTERM', 'removeAllListeners SIGTERM', 'kill 4242 SIGTERM']);
  });

  it('should exit with 128 + the signal number if still alive after the fallback delay', () => {
    // Arrange
    vi.useFakeTimers();
    const proc = recordingProcess();

    // Act
    exitLike({ kind: 'signaled', signal: 'SIGTERM' }, proc);
    vi.advanceTimersByTime(SIGNAL_FALLBACK_DELAY_MS - 1);
    const beforeDelay = [...proc.calls];
    vi.advanceTimersByTime(1);

    // Assert
    expect(beforeDelay).not.toContain('exit 143');
    expect(proc.calls.at(-1)).toBe('exit 143');
  });

  it('should exit with 128 + the signal number at once if it cannot signal itself', () => {
    vi.useFakeTimers();
    const proc = recordingProcess({ killThrows: true });

    exitLike({ kind: 'signaled', signal: 'SIGINT' }, proc);

    expect(proc.calls.at(-1)).toBe('exit 130');
  });

  it('should work with a double that has no listener methods', () => {
    vi.useFakeTimers();
    const calls: string[] = [];
    const proc: ExitTarget = {
      pid: 1,
      exit: (code) => (calls.push(`exit ${code}`), undefined as never),
      kill: (pid, signal) => (calls.push(`kill ${pid} ${signal}`), true),
    };

    exitLike({ kind: 'signaled', signal: 'SIGHUP' }, proc);

    expect(calls).toEqual(['kill 1 SIGHUP']);
  });
});

// End to end: the outer process runs runChild + exitLike on a fixture, and must end as it did.
describe('exitLike in a real process', () => {
  let fixtures: FixtureCommands;
  beforeAll(async () => {
    fixtures = await createFixtureCommands();
  });
  afterAll(() => fixtures.remove());

  type Case = { argv: string[]; code: number | null; signal: NodeJS.Signals | null; stderr: string };
  it.each<Case>([
    { argv: ['exit-with', '0'], code: 0, signal: null, stderr: '' },
    { argv: ['exit-with', '3'], code: 3, signal: null, stderr: '' },
    { argv: ['exit-with', '255'], code: 255, signal: null, stderr: '' },
    { argv: ['kill-self', 'TERM'], code: null, signal: 'SIGTERM', stderr: '' },
    { argv: ['kill-self', 'INT'], code: null, signal: 'SIGINT', stderr: '' },
    { argv: ['kill-self', 'HUP'], code: null, signal: 'SIGHUP', stderr: '' },
    { argv: ['kill-self', 'USR1'], code: null, signal: 'SIGUSR1', stderr: '' },
    // Node ignores SIGPIPE in itself, so mirroring it needs the default action restored.
    { argv: ['kill-self', 'PIPE'], code: null, signal: 'SIGPIPE', stderr: '' },
    {
      argv: ['no-such-command-ctxshed'],
      code: 127,
      signal: null,
      stderr: 'ctxshed: command not found: no-such-command-ctxshed\n',
    },
    {
      argv: ['not-executable'],
      code: 126,
      signal: null,
      stderr: 'ctxshed: permission denied: not-executable\n',
    },
  ])('should end with ($code, $signal) for $argv', async ({ argv, code, signal, stderr }) => {
    // Act
    const run = await runWrapper(argv, fixtures.env);

    // Assert
    const ended = { code: run.code, signal: run.signal, stderr: run.stderr };
    expect(ended).toEqual({ code, signal, stderr });
  });
});
