import { EventEmitter } from 'node:events';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TERMINAL_SIGNALS } from '../../src/wrapper/foreground.js';
import { forwardSignals, type SignalTarget } from '../../src/wrapper/forward-signals.js';
import { FORWARDED_SIGNALS } from '../../src/wrapper/signals.js';
import { createFixtureCommands, type FixtureCommands } from './helpers/fixture-commands.js';
import { killStartedProcesses, wrapperArgv } from './helpers/run-wrapper.js';
import { HAS_SCRIPT, startOnTerminal } from './helpers/terminal.js';

/** A target that records what it was sent. */
function recordingTarget(pid: number | undefined): SignalTarget & { sent: NodeJS.Signals[] } {
  const sent: NodeJS.Signals[] = [];
  return { pid, sent, kill: (signal) => (sent.push(signal), true) };
}

describe('forwardSignals', () => {
  it('should pass a caught signal to the target', () => {
    // Arrange
    const source = new EventEmitter();
    const target = recordingTarget(4242);
    const signals: NodeJS.Signals[] = ['SIGUSR2', 'SIGTERM'];
    forwardSignals(() => target, { source, signals, isForeground: () => false });

    // Act
    source.emit('SIGUSR2');
    source.emit('SIGTERM');

    // Assert
    expect(target.sent).toEqual(['SIGUSR2', 'SIGTERM']);
  });

  it('should forward a terminal signal only when the child is not in the foreground group', () => {
    fc.assert(
      fc.property(fc.constantFrom(...FORWARDED_SIGNALS), fc.boolean(), (signal, foreground) => {
        // Arrange
        const source = new EventEmitter();
        const target = recordingTarget(4242);
        forwardSignals(() => target, { source, isForeground: () => foreground });

        // Act
        source.emit(signal);

        // Assert
        const reachedChildAlready = foreground && TERMINAL_SIGNALS.has(signal);
        expect(target.sent).toEqual(reachedChildAlready ? [] : [signal]);
      }),
    );
  });

  it('should ask about the child by its pid', () => {
    const asked: number[] = [];
    const source = new EventEmitter();
    forwardSignals(() => recordingTarget(777), {
      source,
      isForeground: (pid) => (asked.push(pid), true),
    });

    source.emit('SIGINT');

    expect(asked).toEqual([777]);
  });

  it('should do nothing while there is no child or no pid', () => {
    const source = new EventEmitter();
    const noPid = recordingTarget(undefined);
    forwardSignals(() => undefined, { source, signals: ['SIGTERM'] });
    forwardSignals(() => noPid, { source, signals: ['SIGTERM'] });

    expect(() => source.emit('SIGTERM')).not.toThrow();
    expect(noPid.sent).toEqual([]);
  });

  it('should not throw when the child cannot be signalled', () => {
    const source = new EventEmitter();
    const gone: SignalTarget = {
      pid: 1,
      kill: () => {
        throw new Error('ESRCH');
      },
    };
    forwardSignals(() => gone, { source, signals: ['SIGTERM'] });

    expect(() => source.emit('SIGTERM')).not.toThrow();
  });

  it('should remove every listener it added, and skip signals it cannot listen for', () => {
    // Arrange
    const emitter = new EventEmitter();
    const source = {
      on(signal: NodeJS.Signals, listener: () => void): void {
        if (signal === 'SIGHUP') throw new Error('EINVAL');
        emitter.on(signal, listener);
      },
      removeListener(signal: NodeJS.Signals, listener: () => void): void {
        emitter.removeListener(signal, listener);
      },
    };

    // Act
    const stop = forwardSignals(() => recordingTarget(4242), { source });
    const whileRunning = FORWARDED_SIGNALS.map((signal) => emitter.listenerCount(signal));
    stop();

    // Assert
    expect(whileRunning).toEqual(FORWARDED_SIGNALS.map((signal) => (signal === 'SIGHUP' ? 0 : 1)));
    expect(emitter.eventNames()).toEqual([]);
  });

  it('should listen on the real process by default and stop listening when told', () => {
    const before = process.listenerCount('SIGTERM');
    const stop = forwardSignals(() => undefined);
    const during = process.listenerCount('SIGTERM');
    stop();
    expect([during, process.listenerCount('SIGTERM')]).toEqual([before + 1, before]);
  });
});

const CTRL_C_ROUNDS = 5;
const READY_LINE = /ready (\d+)\r?\n/;

// A real terminal: the wrapper and its child are the pty's foreground group, so a ^C written to
// the pty reaches both from the kernel.
describe.runIf(HAS_SCRIPT)('forwardSignals on a terminal', () => {
  let fixtures: FixtureCommands;
  beforeAll(async () => {
    fixtures = await createFixtureCommands();
  });
  afterAll(() => fixtures.remove());
  afterEach(() => killStartedProcesses());

  it('should deliver each ^C to the child once, yet forward a kill() to the wrapper', async () => {
    // Arrange
    const run = startOnTerminal(wrapperArgv(['count-int']), fixtures.env);
    const ready = await run.waitForStdout(READY_LINE);
    const wrapperPid = Number(READY_LINE.exec(ready)?.[1]);

    // Act: ^C from the terminal, waiting each time until the child has counted it. A forwarded
    // duplicate can merge with the original while both are pending, so one round could hide it;
    // several rounds make a duplicate show up. Then SIGUSR2 by pid, which must be forwarded.
    for (let round = 1; round <= CTRL_C_ROUNDS; round += 1) {
      run.child.stdin?.write('\x03');
      await run.waitForStdout(`got INT ${round}`);
    }
    process.kill(wrapperPid, 'SIGUSR2');
    const result = await run.done;

    // Assert: the child exits with 10 + the SIGINTs it saw. The wrapper handles each SIGINT
    // before the later SIGUSR2, so every forwarded duplicate would be counted by then.
    expect(result.code).toBe(10 + CTRL_C_ROUNDS);
  });
});
