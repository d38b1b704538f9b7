import { isTerminalForeground, TERMINAL_SIGNALS } from './foreground.js';
import { FORWARDED_SIGNALS } from './signals.js';

/** The part of a ChildProcess that signals are passed to. */
export type SignalTarget = {
  readonly pid?: number | undefined;
  kill(signal: NodeJS.Signals): boolean;
};

/** Where signal listeners go: `process`, or an EventEmitter in tests. */
export type SignalSource = {
  on(signal: NodeJS.Signals, listener: () => void): unknown;
  removeListener(signal: NodeJS.Signals, listener: () => void): unknown;
};

/** Knobs for tests; the defaults are the real process and platform. */
export type ForwardSignalsOptions = {
  source?: SignalSource;
  signals?: readonly NodeJS.Signals[];
  isForeground?: (pid: number) => boolean;
};

/**
 * Catches every forwardable signal and passes it to `target()` until the returned function is
 * called. Terminal signals that already reached the child directly are not sent a second time.
 */
export function forwardSignals(target: () => SignalTarget | undefined, options: ForwardSignalsOptions = {}): () => void {
  const { source = process, signals = FORWARDED_SIGNALS } = options;
  const isForeground = options.isForeground ?? isTerminalForeground;
  const installed: Array<[NodeJS.Signals, () => void]> = [];
  for (const signal of signals) {
    const listener = (): void => {
      const child = target();
      if (child?.pid === undefined) return;
      // ^C from a terminal goes to its whole foreground group, which holds the child too (it is
      // never detached). Sending it again would be a second SIGINT, which many programs (npm,
      // vitest, docker compose) take as "force quit now". sudo skips these by si_code; Node
      // cannot see si_code, so ask whether the child is in the terminal's foreground group.
      if (TERMINAL_SIGNALS.has(signal) && isForeground(child.pid)) return;
      try {
        child.kill(signal);
      } catch {
        // The child is gone or cannot take this signal: there is no one left to tell.
      }
    };
    try {
      source.on(signal, listener);
      installed.push([signal, listener]);
    } catch {
      // A name this platform lists but will not let us listen for: skip it.
    }
  }
  return () => {
    for (const [signal, listener] of installed) source.removeListener(signal, listener);
  };
}
