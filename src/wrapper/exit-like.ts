import { constants } from 'node:os';
import type { ChildOutcome } from './run-child.js';

/** How long a re-raised signal may take to end ctxshed before it exits with 128+n instead. */
export const SIGNAL_FALLBACK_DELAY_MS = 2000;

/** What exitLike needs from a process: `process` fits, and tests pass a recorder. */
export type ExitTarget = {
  exit(code: number): never;
  kill(pid: number, signal: NodeJS.Signals): boolean;
  pid: number;
  // Optional so a test double can leave them out; with them the signal's default action is
  // restored before it is raised.
  on?(signal: NodeJS.Signals, listener: () => void): unknown;
  removeAllListeners?(signal: NodeJS.Signals): unknown;
};

/**
 * Ends the current process the way the child ended: the same exit code, or death by the same
 * signal so a parent shell sees the same status (130 for ^C, and no "exit 1" after a kill).
 */
export function exitLike(outcome: ChildOutcome, proc: ExitTarget = process): void {
  switch (outcome.kind) {
    case 'exited':
    case 'spawn-failed':
      proc.exit(outcome.code);
      return;
    case 'signaled':
      raiseOnSelf(outcome.signal, proc);
      return;
  }
}

function raiseOnSelf(signal: NodeJS.Signals, proc: ExitTarget): void {
  const signalNumber = (constants.signals as Record<string, number | undefined>)[signal] ?? 0;
  const fallbackCode = 128 + signalNumber;
  restoreDefaultAction(signal, proc);
  // The signal may land on another thread a moment after kill() returns; the timer keeps the
  // event loop alive until then. If it never ends us (its default action is to ignore, or it
  // is blocked), exit with the status a shell would report for that signal.
  setTimeout(() => proc.exit(fallbackCode), SIGNAL_FALLBACK_DELAY_MS);
  try {
    proc.kill(proc.pid, signal);
  } catch {
    proc.exit(fallbackCode);
  }
}

function restoreDefaultAction(signal: NodeJS.Signals, proc: ExitTarget): void {
  // When the last listener for a signal goes, libuv resets it to SIG_DFL. Adding one first makes
  // that happen even when ctxshed had none, which also undoes Node's own SIG_IGN for SIGPIPE and
  // SIGXFSZ: a child killed by a broken pipe is then mirrored as one too.
  try {
    proc.on?.(signal, ignoreSignal);
    proc.removeAllListeners?.(signal);
  } catch {
    // Not a signal this platform lets us listen for; the kill or the fallback still ends us.
  }
}

function ignoreSignal(): void {}
