import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLI_PATH, runCtxshed } from '../support/cli-process.js';
import { tempStateDir } from '../support/test-proxy.js';

const REAL = fileURLToPath(new URL('../fixtures/real/09-main-last.json', import.meta.url));
const REAL_CODEX = fileURLToPath(new URL('../fixtures/real-openai/07-last.json', import.meta.url));

/** Runs the CLI and keeps stdout as bytes (a rewritten body is not text to be re-decoded). */
function runBytes(args: readonly string[]): Promise<{ code: number | null; stdout: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_PATH, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out), stderr }));
  });
}

describe('ctxshed elide and inflate on a real Claude Code request body', () => {
  it('should print the plan with --dry-run and write nothing', async () => {
    const state = path.join(await tempStateDir(), 'never-made');

    const result = await runCtxshed(['elide', REAL, '--dry-run', '--keep-recent', '0', '--state', state]);

    expect(result.code).toBe(0);
    const plan = JSON.parse(result.stdout) as { blocks: Array<{ ordinal: number; toolUseId: string; bytes: number; sha256: string }>; bytesFreed: number };
    expect(plan.blocks.length).toBeGreaterThan(0);
    expect(Object.keys(plan.blocks[0]!)).toEqual(['ordinal', 'toolUseId', 'bytes', 'sha256', 'label', 'rule', 'tool']);
    expect(plan.bytesFreed).toBeGreaterThan(0);
    await expect(fs.stat(state)).rejects.toThrow();
  });

  it.each([
    ['Claude Code (Messages)', REAL],
    ['Codex (Responses)', REAL_CODEX],
  ])('should elide a real %s body into the state directory and inflate back to the same bytes', async (_client, file) => {
    const state = await tempStateDir();
    const original = await fs.readFile(file);

    const elided = await runBytes(['elide', file, '--keep-recent', '0', '--state', state]);
    const small = path.join(state, '..', `${path.basename(state)}-small.json`);
    await fs.writeFile(small, elided.stdout);
    const inflated = await runBytes(['inflate', small, '--state', state]);

    expect(elided.code).toBe(0);
    expect(elided.stdout.length).toBeLessThan(original.length);
    expect(inflated.code).toBe(0);
    expect(inflated.stdout.equals(original)).toBe(true);
    expect((await runCtxshed(['verify', '--state', state])).code).toBe(0);
    // The epoch is recorded, as a latch records it: inflate puts back what records name.
    const shown = JSON.parse((await runCtxshed(['ls', '--state', state, '--json'])).stdout) as { conversations: { epochs: number }[] };
    expect(shown.conversations.map((c) => c.epochs)).toEqual([1]);
  });

  it.each([
    ['a missing file', ['elide', '/nonexistent/body.json'], /^ctxshed: no such file: /],
    ['a body that is not JSON', ['inflate', fileURLToPath(new URL('../../README.md', import.meta.url))], /not a Messages API body \(not_json/],
  ])('should refuse %s with one line and a non-zero exit', async (_name, args, message) => {
    const result = await runCtxshed(args);

    expect(result.code).not.toBe(0);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(message);
  });
});

describe('ctxshed inflate on a shed body', () => {
  it('should rebuild a real Claude Code request byte for byte from the span file its stub names', async () => {
    const { freezeSpan, planShed } = await import('../../src/core/shed/plan-span.js');
    const { applyEpochs } = await import('../../src/core/epochs/apply.js');
    const { SPANS } = await import('../../src/core/epochs/spans/spans.js');
    const { readMessagesFacts } = await import('../../src/core/shed/message-facts.js');
    const { openStateDir } = await import('../../src/state/open-state-dir.js');
    const { sha256Hex } = await import('../../src/state/sha256-hex.js');
    const { writeSpanFiles } = await import('../support/span-files.js');
    const { latchEpoch } = await import('../../src/state/latch-epoch.js');
    const { keyOf, recordOf, shedEpochOf } = await import('../state/fixtures/state-fixtures.js');
    const dir = await tempStateDir();
    const state = await openStateDir(dir);
    const original = await fs.readFile(REAL);
    const plan = planShed(original, [], { readFacts: readMessagesFacts, sha256: sha256Hex });
    if (plan.kind !== 'planned') throw new Error(plan.reason);
    await writeSpanFiles(state, plan.span.sha256, plan.span.text);
    // inflate puts back what a record names: the span's epoch, as the proxy would have written it.
    await latchEpoch(state, keyOf('real'), () => ({ record: recordOf(keyOf('real'), [shedEpochOf(1, freezeSpan(plan.span))]), originals: [] }));
    const shed = applyEpochs(SPANS, original, [freezeSpan(plan.span)], { spansDir: state.spansDir, sha256: sha256Hex });
    if (shed.kind !== 'applied') throw new Error(shed.reason);
    const file = path.join(dir, 'shed.json');
    await fs.writeFile(file, shed.body);

    const result = await runBytes(['inflate', file, '--state', dir]);

    expect(shed.body.length).toBeLessThan(original.length);
    expect(result.code).toBe(0);
    expect(result.stdout.equals(original)).toBe(true);
  });
});
