import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const DRIVER = fileURLToPath(new URL('../fixtures/wrap-child.ts', import.meta.url));
// `node --import tsx`, not the tsx CLI: the CLI is a second process that relays signals and
// exit statuses, and these tests are about how the outer process itself ends.
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** How an outer process ended, with everything it wrote. */
export type ProcessRun = {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
};

/** A started process: its handle, its end, and a way to wait until its stdout shows some text. */
export type StartedProcess = {
  child: ChildProcess;
  done: Promise<ProcessRun>;
  /** Resolves with all of stdout so far once it contains `pattern`. */
  waitForStdout(pattern: string | RegExp): Promise<string>;
};

/** The argv that runs the wrapper driver on COMMAND ARGS... with this Node and tsx. */
export function wrapperArgv(commandAndArgs: readonly string[]): string[] {
  return [process.execPath, '--import', TSX_LOADER, DRIVER, ...commandAndArgs];
}

const running = new Set<ChildProcess>();

/** Kills what startProcess started and is still running, by process group; for afterEach. */
export function killStartedProcesses(): void {
  for (const child of running) {
    // detached made each one a group leader, so -pid reaches it and its children, and nothing else.
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }
  running.clear();
}

/** Starts `argv` with piped stdio, in its own session so no terminal of the test runner is its. */
export function startProcess(argv: readonly string[], env: NodeJS.ProcessEnv): StartedProcess {
  const [file = '', ...args] = argv;
  // detached only here, in the test: it keeps the wrapper out of a terminal's foreground group
  // when vitest itself runs in one, so what it receives came from kill() alone.
  const child = spawn(file, args, { cwd: ROOT, env, detached: true, stdio: 'pipe' });
  running.add(child);
  let stdout = '';
  let stderr = '';
  const waiters: Array<() => void> = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    for (const check of waiters) check();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const done = new Promise<ProcessRun>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  const waitForStdout = (pattern: string | RegExp): Promise<string> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const seen = typeof pattern === 'string' ? stdout.includes(pattern) : pattern.test(stdout);
        if (seen) resolve(stdout);
      };
      waiters.push(check);
      check();
      const ended = (): void => {
        reject(new Error(`ended without printing ${String(pattern)}: ${stdout}${stderr}`));
      };
      done.then(ended, reject);
    });
  return { child, done, waitForStdout };
}

/** Runs the wrapper driver on COMMAND ARGS... to its end. */
export function runWrapper(commandAndArgs: readonly string[], env: NodeJS.ProcessEnv): Promise<ProcessRun> {
  return startProcess(wrapperArgv(commandAndArgs), env).done;
}
