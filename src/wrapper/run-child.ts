import { spawn, type ChildProcess } from 'node:child_process';
import { forwardSignals } from './forward-signals.js';
import { describeSpawnFailure } from './spawn-failure.js';

/** How a child run ended: its exit code, the signal that killed it, or why it never started. */
export type ChildOutcome =
  | { kind: 'exited'; code: number }
  | { kind: 'signaled'; signal: NodeJS.Signals }
  | { kind: 'spawn-failed'; code: 126 | 127; message: string };

/** `env` is the child's whole environment; `stderr` receives the one line about a failed start. */
export type RunChildOptions = { env: NodeJS.ProcessEnv; stderr?: NodeJS.WritableStream };

/**
 * Runs `command` as if it were ctxshed itself: on ctxshed's stdio, with every forwardable signal
 * passed on, until it ends. On a failed start it writes one line to `stderr` and resolves with
 * `spawn-failed`; it never rejects. Signal listeners are removed before it resolves.
 */
export async function runChild(command: string, args: readonly string[], options: RunChildOptions): Promise<ChildOutcome> {
  const stderr = options.stderr ?? process.stderr;
  let child: ChildProcess | undefined;
  // Listen before spawning: a signal landing between spawn() and the listeners would take the
  // default action and kill ctxshed with the child still running. Listeners only run on a later
  // turn of the event loop, by which time `child` is set.
  const stopForwarding = forwardSignals(() => child);
  try {
    return await new Promise<ChildOutcome>((resolve) => {
      const fail = (error: unknown): void => {
        const failure = describeSpawnFailure(command, error);
        stderr.write(`${failure.message}\n`);
        resolve({ kind: 'spawn-failed', ...failure });
      };
      try {
        // Never `detached`: the child must stay in our process group so the terminal's ^C and
        // ^Z and the shell's job control reach it (execa docs/termination.md).
        child = spawn(command, [...args], { stdio: 'inherit', env: options.env });
      } catch (error) {
        // Node throws some failures (ENOTDIR, E2BIG) instead of emitting 'error'.
        fail(error);
        return;
      }
      child.on('error', (error) => {
        // Without a pid the command never started and 'exit' will not follow. With one, this is
        // a failed kill() from forwarding and the child runs on; the listener still has to
        // exist, or Node would throw the error.
        if (child?.pid === undefined) fail(error);
      });
      child.once('exit', (code, signal) => {
        // Node gives exactly one of the two; 1 only guards the impossible case.
        resolve(signal === null ? { kind: 'exited', code: code ?? 1 } : { kind: 'signaled', signal });
      });
    });
  } finally {
    stopForwarding();
  }
}
