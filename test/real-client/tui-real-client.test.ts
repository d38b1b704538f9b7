/**
 * The interactive Claude Code client on a pseudo-terminal (tmux), default permission mode, through
 * `ctxshed rescue`: with the grant, reading an elided file back shows no permission prompt; with
 * --no-grant, Claude Code stops at its prompt. See tui-scenario.ts.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_PATH } from '../support/cli-process.js';
import { TSX_BIN, whyClientCannotRun } from './client-env.js';
import { withoutLineNumbers } from './request-bytes.js';
import { DONE_TEXT, PROMPT_TEXT, tmuxVersion, type TuiObservations } from './tui-scenario.js';

const SCENARIO = new URL('./tui-scenario.ts', import.meta.url).pathname;
const SCENARIO_TIMEOUT_MS = 300_000;

const whyNot = whyClientCannotRun() ?? (tmuxVersion() === undefined ? 'tmux is not installed' : undefined);
if (whyNot !== undefined) console.warn(`real-client TUI suite SKIPPED: ${whyNot}`);

describe.skipIf(whyNot !== undefined)('the interactive Claude Code client through ctxshed rescue', () => {
  let root = '';
  let obs: TuiObservations;

  beforeAll(async () => {
    if (!existsSync(CLI_PATH)) throw new Error(`${CLI_PATH} is missing: build first (npx tsc -p tsconfig.json)`);
    root = mkdtempSync(join(tmpdir(), 'ctxshed-tui-client-'));
    const run = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(TSX_BIN, [SCENARIO, '--root', root], { stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
      child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
      child.on('close', (code) => resolve({ code, output }));
    });
    if (run.code !== 0) throw new Error(`the scenario failed (${String(run.code)}):\n${run.output}`);
    obs = JSON.parse(readFileSync(join(root, 'observations.json'), 'utf8')) as TuiObservations;
  }, SCENARIO_TIMEOUT_MS);

  afterAll(() => {
    if (root !== '') rmSync(root, { recursive: true, force: true, maxRetries: 5 });
  });

  it('should show no permission prompt for an elided file with the grant, and the text should come back', () => {
    const run = obs.runs.find((r) => r.grant)!;
    expect(run.ready).toContain('? for shortcuts');
    expect(run.final).toContain(DONE_TEXT);
    expect(run.final).not.toContain(PROMPT_TEXT);
    expect(withoutLineNumbers(run.readResult ?? '')).toBe(obs.elidedText);
  });

  it('should stop at the permission prompt for the same Read with --no-grant (the control)', () => {
    const run = obs.runs.find((r) => !r.grant)!;
    expect(run.final).toContain(PROMPT_TEXT);
    expect(run.final).toContain(`Read(${obs.elidedPath})`);
    expect(run.final).not.toContain(DONE_TEXT);
    expect(run.readResult).toBeUndefined();
  });

  it('should end both clients with Ctrl-C, as a person would', () => {
    for (const run of obs.runs) expect(run.exited, String(run.grant)).toBe(true);
  });
});
