/**
 * The interactive Claude Code client on a pseudo-terminal (tmux), default permission mode, through
 * `ctxshed rescue`: with the grant, reading an elided file back shows no permission prompt; with
 * --no-grant, Claude Code stops at its prompt. See tui-scenario.ts.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { whyClientCannotRun } from './client-env.js';
import { withoutLineNumbers } from './request-bytes.js';
import { DONE_TEXT, EPOCH_STATUS, IDLE_STATUS, PROMPT_TEXT, READY_TEXT, STATUS_DONE_TEXT, tmuxVersion, type TuiObservations } from './tui-scenario.js';
import { readObservations, runScenario } from './run-scenario.js';

const SCENARIO = new URL('./tui-scenario.ts', import.meta.url).pathname;
const SCENARIO_TIMEOUT_MS = 300_000;

const whyNot = whyClientCannotRun() ?? (tmuxVersion() === undefined ? 'tmux is not installed' : undefined);
if (whyNot !== undefined) console.warn(`real-client TUI suite SKIPPED: ${whyNot}`);

describe.skipIf(whyNot !== undefined)('the interactive Claude Code client through ctxshed rescue', () => {
  let root = '';
  let obs: TuiObservations;

  beforeAll(async () => {
    const run = await runScenario(SCENARIO, 'ctxshed-tui-client-');
    root = run.root;
    obs = readObservations<TuiObservations>(run);
  }, SCENARIO_TIMEOUT_MS);

  afterAll(() => {
    if (root !== '') rmSync(root, { recursive: true, force: true, maxRetries: 5 });
  });

  it('should show no permission prompt for an elided file with the grant, and the text should come back', () => {
    const run = obs.runs.find((r) => r.grant)!;
    expect(run.ready).toMatch(READY_TEXT);
    expect(run.final).toContain(DONE_TEXT);
    expect(run.final).not.toMatch(PROMPT_TEXT);
    expect(withoutLineNumbers(run.readResult ?? '')).toBe(obs.elidedText);
  });

  it('should stop at the permission prompt for the same Read with --no-grant (the control)', () => {
    const run = obs.runs.find((r) => !r.grant)!;
    expect(run.final).toMatch(PROMPT_TEXT);
    expect(run.final).toContain(`Read(${obs.elidedPath})`);
    expect(run.final).not.toContain(DONE_TEXT);
    // After the "No" the scenario answers, 2.1.197 waits for the person; 2.1.328 tells the model
    // the read was refused. Either way the text does not come back.
    if (run.readResult !== undefined) expect(run.readResult).toMatch(/^The user did not allow this read/);
  });

  it("should show ctxshed in Claude Code's status line after the user's own, and the line should change after an epoch", () => {
    const run = obs.statusLine;
    console.info(`real-client TUI suite (rescue mode, the status line session): ${run.latched} epoch(s); requests over the window ${run.overWindow}`);
    // Requests sent over the window (the scripted API refuses them as the real one does): 0.
    expect(run.overWindow).toBe(0);
    expect(run.ready).toMatch(IDLE_STATUS);
    expect(run.ready).toMatch(/USER-LINE {2}ctxshed on/);
    expect(run.final).toContain(STATUS_DONE_TEXT);
    expect(run.latched).toBeGreaterThan(0);
    expect(run.after).toMatch(EPOCH_STATUS);
    expect(run.after).toMatch(/USER-LINE {2}ctxshed · epoch/);
    expect(run.exited).toBe(true);
  });

  it("should show nothing of ctxshed's on any screen after its banner, in every session", () => {
    expect(obs.runs.map((r) => r.stray)).toEqual([[], []]);
    expect(obs.statusLine.stray).toEqual([]);
  });

  it("should show nothing of ctxshed's after its banner while the upstream cannot be reached, the failures in the wire log instead", () => {
    const run = obs.unreachable;
    expect(run.failed).toBeGreaterThanOrEqual(3);
    expect(run.stray, run.final).toEqual([]);
    expect(run.exited, run.final).toBe(true);
  });

  it('should end both clients with Ctrl-C, as a person would', () => {
    // On a failure, the pane as it was last seen says what the client was doing.
    for (const run of obs.runs) expect(run.exited, `grant ${String(run.grant)}; the pane:\n${run.closing}`).toBe(true);
  });
});
