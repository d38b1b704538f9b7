/**
 * Running a real-client scenario for a suite: the scenario script (under tsx) drives the client
 * through ctxshed in a fresh root and leaves `observations.json` and `bodies/` there for the
 * suite's assertions.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_PATH } from '../support/cli-process.js';
import { TSX_BIN } from './client-env.js';

/** What a scenario run left: its root, its exit code and everything it printed. */
export interface ScenarioRun {
  readonly root: string;
  readonly code: number | null;
  readonly output: string;
}

/** Runs `scenario` with `--root` a fresh directory named from `prefix`, then `args`. Needs the built CLI. */
export async function runScenario(scenario: string, prefix: string, args: readonly string[] = []): Promise<ScenarioRun> {
  if (!existsSync(CLI_PATH)) throw new Error(`${CLI_PATH} is missing: build first (npx tsc -p tsconfig.json)`);
  const root = mkdtempSync(join(tmpdir(), prefix));
  return new Promise((resolve) => {
    const child = spawn(TSX_BIN, [scenario, '--root', root, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.on('close', (code) => resolve({ root, code, output }));
  });
}

/** The run's `observations.json`; a run that did not exit 0 throws with its output. */
export function readObservations<T>(run: ScenarioRun): T {
  if (run.code !== 0) throw new Error(`the scenario failed (${String(run.code)}):\n${run.output}`);
  return JSON.parse(readFileSync(join(run.root, 'observations.json'), 'utf8')) as T;
}

/** A body the scenario saved as `<root>/bodies/<file>`. */
export function readBody(root: string, file: string): Buffer {
  return readFileSync(join(root, 'bodies', file));
}
