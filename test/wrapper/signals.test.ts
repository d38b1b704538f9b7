import { constants } from 'node:os';
import { describe, expect, it } from 'vitest';
import { FORWARDED_SIGNALS } from '../../src/wrapper/signals.js';

const SIGNAL_NUMBERS = constants.signals as Record<string, number | undefined>;

describe('FORWARDED_SIGNALS', () => {
  it.runIf(process.platform === 'linux')('should hold the signals users send a wrapper', () => {
    // Arrange
    const expected = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGUSR1', 'SIGUSR2'];
    expected.push('SIGWINCH', 'SIGCONT', 'SIGALRM', 'SIGABRT');

    // Act
    const forwarded = new Set(FORWARDED_SIGNALS);

    // Assert
    for (const signal of expected) expect(forwarded, signal).toContain(signal);
  });

  it.each(['SIGKILL', 'SIGSTOP', 'SIGSEGV', 'SIGBUS', 'SIGFPE', 'SIGILL', 'SIGCHLD', 'SIGPIPE', 'SIGXFSZ', 'SIGPROF', 'SIGTSTP', 'SIGTTIN', 'SIGTTOU'])(
    'should never hold %s',
    (signal) => {
      expect(FORWARDED_SIGNALS).not.toContain(signal);
    },
  );

  it('should only hold names this platform knows, one per signal number', () => {
    // Act
    const numbers = FORWARDED_SIGNALS.map((signal) => SIGNAL_NUMBERS[signal]);

    // Assert
    expect(numbers.every((number) => typeof number === 'number')).toBe(true);
    expect(new Set(numbers).size).toBe(FORWARDED_SIGNALS.length);
  });

  it('should only hold signals a listener can be added for', () => {
    for (const signal of FORWARDED_SIGNALS) {
      const listener = (): void => {};
      expect(() => process.on(signal, listener), signal).not.toThrow();
      process.removeListener(signal, listener);
    }
  });
});
