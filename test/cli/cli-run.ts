/** Running the built CLI from a chosen directory, and stopping a `--follow` run with Ctrl-C. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CLI_PATH, type CliResult } from '../support/cli-process.js';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const STATE_EXAMPLE = fileURLToPath(new URL('../../state.example', import.meta.url));

/**
 * Runs `ctxshed ...args` in `cwd`. When `stopWhen` is given, sends SIGINT once stdout satisfies
 * it (as Ctrl-C would) and resolves when the process has exited.
 */
export function runCli(
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; stopWhen?: ((stdout: string) => boolean) | undefined; timeoutMs?: number } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_PATH, ...args], {
      cwd: options.cwd ?? REPO_ROOT,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let stopped = false;
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (!stopped && options.stopWhen?.(stdout) === true) {
        stopped = true;
        child.kill('SIGINT');
      }
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** The longest line of `text`, in characters. */
export function widest(text: string): number {
  return Math.max(0, ...text.split('\n').map((line) => [...line].length));
}
