/** Runs the built `ctxshed` executable (dist/, made by `npm test`'s tsc step) as a real process. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CLI_PATH = fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url));

/** The same CLI with crash points armed by `CTXSHED_TEST_CRASH_AT` (crash-cli.ts): the product's entry never reads it. */
export const CRASH_CLI_PATH = fileURLToPath(new URL('../../dist/test/support/crash-cli.js', import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs `ctxshed ...args` to completion. */
export function runCtxshed(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_PATH, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Starts `ctxshed serve ...args` and resolves once it prints its ANTHROPIC_BASE_URL. */
export function startServe(args: readonly string[]): Promise<{ child: ChildProcess; url: string; exited: Promise<CliResult> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_PATH, 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const exited = new Promise<CliResult>((done) => child.on('close', (code, signal) => done({ code, signal, stdout, stderr })));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString();
      const m = /ANTHROPIC_BASE_URL=(\S+)/.exec(stdout);
      if (m !== null) resolve({ child, url: m[1]!, exited });
    });
    void exited.then((r) => reject(new Error(`serve exited before it was ready: ${r.code} ${r.stderr}`)));
  });
}
