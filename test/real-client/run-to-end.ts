/** Runs one client process to its end for a real-client scenario: its exit code and output, killed after a time limit. */
import { spawn } from 'node:child_process';

/** How a scenario's client process ended. */
export interface RunResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `cmd args` in `cwd` with exactly `env`, stdin closed; SIGKILL after `timeoutMs`. Never rejects. */
export function runToEnd(cmd: string, args: readonly string[], cwd: string, env: Record<string, string>, timeoutMs: number): Promise<RunResult> {
  return new Promise((done) => {
    const child = spawn(cmd, [...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', (e) => (stderr += String(e)));
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}
