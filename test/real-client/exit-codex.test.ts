/**
 * `ctxshed rescue -- codex exec …` exits with Codex's own code while epochs latch (issue 41: it
 * exited 13 whenever epochs latched and Codex left its WebSocket open). See exit-codex-scenario.ts.
 * Skipped where Codex or its sandbox cannot run, or the network cannot be isolated with `unshare -n`.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODEX_CLIENTS, whyCodexCannotRun, whyCodexSandboxCannotRun } from './codex-env.js';
import { CANNOT_ISOLATE } from './codex-runs.js';
import type { ExitObservations } from './exit-codex-scenario.js';
import { readObservations, runScenario } from './run-scenario.js';

const SCENARIO = new URL('./exit-codex-scenario.ts', import.meta.url).pathname;
const SCENARIO_TIMEOUT_MS = 300_000;
const why = whyCodexCannotRun(CODEX_CLIENTS.current) ?? whyCodexSandboxCannotRun();
if (why !== undefined) console.warn(`real Codex exit-code suite SKIPPED: the CLI or its sandbox cannot run here (${why})`);

describe.skipIf(why !== undefined)(`ctxshed rescue's exit code with the real Codex CLI ${CODEX_CLIENTS.current.version}`, () => {
  let root = '';
  let skipped = '';
  let obs: ExitObservations;

  beforeAll(async () => {
    const run = await runScenario(SCENARIO, 'ctxshed-real-codex-exit-');
    root = run.root;
    if (run.code === CANNOT_ISOLATE) {
      skipped = 'unshare -n is not available here';
      console.warn(`real Codex exit-code suite SKIPPED: ${skipped}`);
      return;
    }
    obs = readObservations<ExitObservations>(run);
  }, SCENARIO_TIMEOUT_MS);

  afterAll(() => {
    if (root !== '') rmSync(root, { recursive: true, force: true });
  });

  it('should exit with the code Codex exited with, epochs latching over its WebSocket', ({ skip }) => {
    if (skipped !== '') skip();
    const { run } = obs;
    expect(run.latched, run.stderr).toBeGreaterThan(0);
    expect(run.overWebSocket).toBeGreaterThan(0);
    // Codex takes the last refusal as the end of its turn and exits 1, its WebSocket left open.
    expect({ rescue: run.rescueCode, codex: run.codexCode }, run.stderr).toEqual({ rescue: 1, codex: 1 });
  });
});
