/**
 * The four report commands lay their text out to COLUMNS off a terminal (docs/commands.md), with
 * `--json` untouched by it; the layout itself is tested at 60, 80, 120 and 200 columns in
 * test/report/report-width.test.ts. And `ls` says when a line of the wire log could not be read.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempStateDir } from '../support/test-proxy.js';
import { runCli, STATE_EXAMPLE, widest } from './cli-run.js';

const REPORTS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['ls', ['ls']],
  ['status', ['status']],
  ['stats', ['stats']],
  ['show', ['show', 'cbf84ec36c85']],
];

let junk: string;
beforeAll(async () => {
  junk = await tempStateDir('ctxshed-width-');
  await fs.cp(STATE_EXAMPLE, junk, { recursive: true });
  await fs.appendFile(path.join(junk, 'wire.jsonl'), 'not a record\n');
});
afterAll(async () => {
  await fs.rm(junk, { recursive: true, force: true });
});

describe('the report commands, off a terminal', () => {
  it.each(REPORTS)('should lay `%s` out to COLUMNS=80, and its --json alike at any width', async (_name, args) => {
    const at = (columns: string, extra: readonly string[] = []) =>
      runCli([...args, '--state', STATE_EXAMPLE, ...extra], { env: { ...process.env, COLUMNS: columns } });

    const [narrow, wide, json80, json200] = await Promise.all([at('80'), at('200'), at('80', ['--json']), at('200', ['--json'])]);

    expect(narrow.code).toBe(0);
    expect(widest(narrow.stdout)).toBeLessThanOrEqual(80);
    expect(widest(wide.stdout)).toBeGreaterThan(80);
    expect(json80.stdout.replace(/"now": "[^"]*"/, '')).toBe(json200.stdout.replace(/"now": "[^"]*"/, ''));
  });

  it('should say in ls how many lines of wire.jsonl could not be read', async () => {
    const result = await runCli(['ls', '--state', junk]);

    expect(result.code).toBe(0);
    expect(result.stdout).toContain('wire.jsonl: 1 line could not be read (not a record), left out of these figures.');
  });
});
