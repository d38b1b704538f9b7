import { constants } from 'node:os';

// Signals ctxshed must not catch, each with the reason. Everything else this platform names is
// forwarded to the child, so `kill -USR2 <ctxshed>` means the same as `kill -USR2 <child>`.
const NOT_FORWARDED: ReadonlyMap<string, string> = new Map([
  // The kernel refuses handlers for these (Node throws EINVAL).
  ['SIGKILL', 'cannot be caught'],
  ['SIGSTOP', 'cannot be caught'],
  // Faults in ctxshed's own code; Node's docs: a JS listener cannot make them safe to resume.
  ['SIGSEGV', 'fault'],
  ['SIGBUS', 'fault'],
  ['SIGFPE', 'fault'],
  ['SIGILL', 'fault'],
  ['SIGTRAP', 'fault / debugger'],
  ['SIGSYS', 'fault'],
  // About ctxshed's own children, sockets and writes. Node ignores SIGPIPE and SIGXFSZ on purpose;
  // catching them would forward "ctxshed wrote to a closed socket" and kill the child for it.
  ['SIGCHLD', 'reports our own children; libuv reaps with it'],
  ['SIGPIPE', 'our own broken pipe or socket'],
  ['SIGXFSZ', 'our own file size limit'],
  ['SIGURG', 'out-of-band data on our own socket'],
  ['SIGIO', 'readiness of our own descriptors'],
  ['SIGPOLL', 'readiness of our own descriptors'],
  // Profilers (node --cpu-prof) drive themselves with it: tapjs/signal-exit#21.
  ['SIGPROF', 'profiler timer'],
  // Job control: the default action must stop ctxshed itself, or the shell never sees the job
  // stop and never gets the terminal back. ^Z already reaches the child (the tty sends SIGTSTP
  // to the whole foreground group), and SIGTTIN/SIGTTOU go to whichever process touched the tty.
  ['SIGTSTP', 'job control'],
  ['SIGTTIN', 'job control'],
  ['SIGTTOU', 'job control'],
]);

/** The signals ctxshed catches while a child runs and passes on to it, for this platform. */
export const FORWARDED_SIGNALS: readonly NodeJS.Signals[] = listForwardedSignals();

function listForwardedSignals(): NodeJS.Signals[] {
  const seenNumbers = new Set<number>();
  const names: NodeJS.Signals[] = [];
  for (const [name, number] of Object.entries(constants.signals)) {
    // Aliases (SIGIOT is SIGABRT) would each get a listener and deliver the signal twice.
    if (NOT_FORWARDED.has(name) || seenNumbers.has(number)) continue;
    seenNumbers.add(number);
    names.push(name as NodeJS.Signals);
  }
  return names;
}
