import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

// Small commands the wrapper runs, written to a temp dir that goes first on PATH (as execa's
// test/helpers/fixtures-directory.js does), so a test names them as a user would.
const SHELL_COMMANDS: Record<string, string> = {
  'exit-with': 'exit "$1"',
  // If the signal does not end the shell, 99 makes the test fail loudly.
  'kill-self': 'kill -s "$1" $$\nexit 99',
  'say-env': 'printf "ANTHROPIC_BASE_URL=%s\\n" "$ANTHROPIC_BASE_URL"',
  'echo-stdin': 'printf "child read: "\ncat',
  // Says its pid, then waits for a line on stdin.
  'wait-for-line': 'echo "pid $$"\nread line',
};

const NODE_COMMANDS: Record<string, string> = {
  // trap-signal SIGNAL CODE: exits with CODE when SIGNAL arrives; says when it is listening.
  'trap-signal': [
    'const [signal, code] = process.argv.slice(2);',
    'process.on(signal, () => process.exit(Number(code)));',
    'process.stdout.write(`ready ${process.ppid}\\n`);',
    // Keeps it alive, and bounds how long it can outlive a failed test.
    'setTimeout(() => process.exit(97), 60_000);',
  ].join('\n'),
  // count-int: counts SIGINTs; on SIGUSR2 exits with 10 + that count.
  'count-int': [
    'let count = 0;',
    "process.on('SIGINT', () => { count += 1; process.stdout.write(`got INT ${count}\\n`); });",
    "process.on('SIGUSR2', () => process.exit(10 + count));",
    'process.stdout.write(`ready ${process.ppid}\\n`);',
    'setTimeout(() => process.exit(97), 60_000);',
  ].join('\n'),
};

/** A temp dir of fixture commands and an environment that finds them first on PATH. */
export type FixtureCommands = { dir: string; env: NodeJS.ProcessEnv; remove(): Promise<void> };

/** Writes the fixture commands, plus `not-executable` (mode 0644), into a fresh temp dir. */
export async function createFixtureCommands(): Promise<FixtureCommands> {
  const dir = await mkdtemp(join(tmpdir(), 'ctxshed-wrapper-'));
  for (const [name, body] of Object.entries(SHELL_COMMANDS)) {
    await writeExecutable(join(dir, name), `#!/bin/sh\n${body}\n`);
  }
  for (const [name, body] of Object.entries(NODE_COMMANDS)) {
    await writeExecutable(join(dir, name), `#!${process.execPath}\n${body}\n`);
  }
  await writeFile(join(dir, 'not-executable'), '#!/bin/sh\nexit 0\n', { mode: 0o644 });
  const path = `${dir}${delimiter}${process.env['PATH'] ?? ''}`;
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: path };
  delete env['ANTHROPIC_BASE_URL'];
  return { dir, env, remove: () => rm(dir, { recursive: true, force: true }) };
}

async function writeExecutable(path: string, text: string): Promise<void> {
  await writeFile(path, text);
  await chmod(path, 0o755);
}
