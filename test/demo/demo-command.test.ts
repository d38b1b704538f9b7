import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DemoReport } from '../../src/demo/demo-report.js';
import { CLI_PATH, runCtxshed } from '../support/cli-process.js';
import { tempStateDir } from '../support/test-proxy.js';

describe('demoCommand', () => {
  it('should print one JSON report with an epoch, bytes saved, a clean verify and an intact read-back', async () => {
    const state = await tempStateDir('ctxshed-demo-cli-');

    const result = await runCtxshed(['demo', '--json', '--turns', '20', '--state', state]);

    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as DemoReport;
    expect(report.state).toBe(state);
    expect(report.epochs.length).toBeGreaterThanOrEqual(1);
    expect(report.summary.bytesSaved).toBeGreaterThan(0);
    expect(report.verify.ok).toBe(true);
    expect(report.readBack?.matched).toBe(true);
  });

  it('should show a line per turn, the latch, the read-back and the commands to look further', async () => {
    const state = await tempStateDir('ctxshed-demo-cli-');

    const result = await runCtxshed(['demo', '--turns', '20', '--state', state]);

    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines.filter((l) => /^ {2,4}\d+ {2}\[[#.|]+\]/.test(l))).toHaveLength(20);
    expect(result.stdout).toMatch(
      new RegExp(`epoch 1 latched at turn \\d+ \\(turn \\d+ was \\d+\\.\\d% full\\): elided \\d+ tool results \\([\\d,]+ bytes\\) -> ${state}/elided/`),
    );
    // The epoch's line sits under the turn it names, and the summary counts the same turn.
    const at = lines.findIndex((l) => l.includes('epoch 1 latched at turn '));
    const turn = /latched at turn (\d+)/.exec(lines[at] ?? '')?.[1] ?? 'none';
    expect(lines[at - 1]?.trimStart().startsWith(`${turn}  [`)).toBe(true);
    expect(result.stdout).toMatch(new RegExp(`epochs {8}\\d+ \\(latched at turns? ${turn}[,)]`));
    expect(result.stdout).toContain('the text came back intact');
    expect(result.stdout).toMatch(/verify {8}ok: 1 conversation, /);
    // Run from the checkout by its path with node, it says node and the script, not a ctxshed
    // that may not be on the PATH (npx: self-command.test.ts); each command works when pasted.
    const cli = `node ${path.relative(process.cwd(), CLI_PATH)}`;
    const further = lines.slice(lines.findIndex((l) => l.startsWith('look further'))).slice(1, 4);
    expect(further).toEqual([
      `  ${cli} verify --state ${state}`,
      `  ${cli} ls --state ${state}`,
      expect.stringMatching(new RegExp(`^  ${cli} show [0-9a-f]{64} --state ${state}$`)),
    ]);
    for (const line of further) {
      const pasted = spawnSync('sh', ['-c', line.trim()], { encoding: 'utf8' });
      expect({ line, code: pasted.status, stderr: pasted.stderr }).toEqual({ line, code: 0, stderr: '' });
    }
  });

  it('should use a fresh directory under the temp dir when --state is not given', async () => {
    const result = await runCtxshed(['demo', '--json', '--turns', '2'], { ...process.env, CTXSHED_STATE: '/nonexistent/never-used' });

    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as DemoReport;
    expect(path.dirname(report.state)).toBe(path.resolve(os.tmpdir()));
    expect(path.basename(report.state)).toMatch(/^ctxshed-demo-/);
    await fs.rm(report.state, { recursive: true });
  });

  it('should run in shed mode with --mode shed: each latch sheds a span, named by its readable file', async () => {
    const state = await tempStateDir('ctxshed-demo-cli-');

    const result = await runCtxshed(['demo', '--mode', 'shed', '--turns', '20', '--state', state]);

    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/shed at 40\.0% of a 40,000-token window when the cache re-write pays back/);
    expect(result.stdout).toMatch(
      new RegExp(
        `epoch 1 latched at turn \\d+ \\(turn \\d+ was \\d+\\.\\d% full\\): shed \\d+ messages \\(1\\.\\.\\d+, [\\d,]+ bytes\\) -> ${state}/spans/[0-9a-f]{64}\\.md`,
      ),
    );
    expect(result.stdout).toMatch(/verify {8}ok: 1 conversation, \d+ epochs?, 0 blocks, 0 elided files, \d+ spans?, 0 problems/);
  });

  it('should refuse a mode that is neither rescue nor shed, as rescue does', async () => {
    const result = await runCtxshed(['demo', '--mode', 'trim']);

    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--mode takes rescue or shed/);
  });

  it('should refuse a turn count that is not a whole number >= 1 with exit 2', async () => {
    const result = await runCtxshed(['demo', '--turns', '0']);

    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--turns takes a whole number >= 1/);
  });
});
