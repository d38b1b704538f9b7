import { execFileSync } from 'node:child_process';
import { startProcess, type StartedProcess } from './run-wrapper.js';

/** Whether util-linux `script` is here to give a test a real terminal (a pty). */
export const HAS_SCRIPT = process.platform === 'linux' && canRun('script', ['--version']);

/**
 * Starts `argv` on a fresh pty as its foreground process group. Writing '\x03' to the returned
 * process's stdin is then a real ^C: the kernel sends SIGINT to that whole group.
 */
export function startOnTerminal(argv: readonly string[], env: NodeJS.ProcessEnv): StartedProcess {
  // exec: a shell left waiting in the group would take the ^C too and die of it.
  const command = `exec ${argv.map(shellQuote).join(' ')}`;
  return startProcess(['script', '-qfec', command, '/dev/null'], { ...env, SHELL: '/bin/sh' });
}

function canRun(file: string, args: string[]): boolean {
  try {
    execFileSync(file, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
