import type { SignalSource } from './forward-signals.js';

/** The keys a person presses to quit a terminal program: ^C (SIGINT) and ^\ (SIGQUIT). */
export const HELD_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGQUIT'];

/**
 * Holds ^C and ^\ from the terminal until the returned function is called: while held, they end
 * nothing in ctxshed. `rescue` holds them from before the child starts until its proxy has closed
 * and its file is gone from the state directory. A person who quits the client with ^C often
 * presses it more than once; a press that lands after the child exits, while the proxy drains
 * (at most SHUTDOWN_GRACE_MS), would otherwise kill ctxshed by SIGINT: the session's exit status
 * lost, and its proxy file left behind. SIGTERM and SIGHUP are not held. The child itself still
 * gets the keys: the terminal sends them to the whole foreground group.
 */
export function holdTerminalSignals(source: SignalSource = process): () => void {
  const held: NodeJS.Signals[] = [];
  for (const signal of HELD_SIGNALS) {
    try {
      source.on(signal, ignorePress);
      held.push(signal);
    } catch {
      // Not a signal this platform lets us listen for: nothing to hold.
    }
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    for (const signal of held) source.removeListener(signal, ignorePress);
  };
}

function ignorePress(): void {}
