import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_PATH } from '../support/cli-process.js';
import { tempStateDir } from '../support/test-proxy.js';
import { runCli, STATE_EXAMPLE, widest } from './cli-run.js';
import { makeSessionState, type SessionState } from './session-state.js';

const EXAMPLE_KEY = 'cbf84ec36c8541e86634fb36f7e8e2e1ee4e82c57470333a5342f9082fcf9ec6';
const FIRST_SHA = '8370b47dccff78983af2d4aa820dcb0de62f3507fe1f7782de755774588d98a9';
const SPAN = 'a79312205cab6d49906a10d19e1296195e9e49b6f0f8495a2da9ff234974e6a1';

interface ShowConversation {
  kind: 'conversation';
  conversation: { key: string; epochs: number };
  epochs: Array<{
    n: number;
    latchedAt: string;
    reason: { fullness: number; threshold: number; window: number; contextTokens: number };
    policy: { name: string; version: number };
    blocks: Array<{ ordinal: number; toolUseId: string; bytes: number; sha256: string; path: string }>;
  }>;
}

// Two elided files whose names share 12 digits; neither text hashes to its name.
const ONE = `abcdef0123451${'0'.repeat(51)}`;
const TWO = `abcdef0123452${'0'.repeat(51)}`;

let session: SessionState;
let scratch: string;
beforeAll(async () => {
  session = await makeSessionState();
  scratch = await tempStateDir('ctxshed-show-');
  await fs.mkdir(path.join(scratch, 'elided'));
  await fs.writeFile(path.join(scratch, 'elided', `${ONE}.txt`), 'one');
  await fs.writeFile(path.join(scratch, 'elided', `${TWO}.txt`), 'two');
});
afterAll(async () => {
  await fs.rm(session.dir, { recursive: true, force: true });
  await fs.rm(scratch, { recursive: true, force: true });
});

describe('ctxshed show', () => {
  it("should print a conversation's epochs by its short key: when, why, the policy, each block", async () => {
    const result = await runCli(['show', 'cbf84ec36c85', '--state', STATE_EXAMPLE], { env: { ...process.env, COLUMNS: '100' } });

    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`conversation ${EXAMPLE_KEY}`);
    expect(result.stdout).toContain('why       fullness 72.6% (8,713 tokens) >= threshold 70.0% of a 12,000-token window');
    expect(result.stdout).toContain('policy    elide-old-tool-results v1');
    expect(result.stdout).toMatch(/\n +0 +toolu_010000000000000000000001 +1,512 +8370b47dccff\n/);
    expect(result.stdout).toContain(`Originals: ${STATE_EXAMPLE}/elided/<SHA256>.txt`);
    expect(widest(result.stdout)).toBeLessThanOrEqual(100);
  });

  it("should give the epochs as JSON with each block's path, whose file hashes to its sha256", async () => {
    const result = await runCli(['show', EXAMPLE_KEY, '--state', STATE_EXAMPLE, '--json']);

    const report = JSON.parse(result.stdout) as ShowConversation;
    expect(report.kind).toBe('conversation');
    expect(report.epochs).toHaveLength(1);
    expect(report.epochs[0]!.reason).toEqual({ fullness: 0.7260833333333333, threshold: 0.7, window: 12_000, contextTokens: 8713 });
    expect(report.epochs[0]!.blocks).toHaveLength(11);
    for (const block of report.epochs[0]!.blocks) {
      const bytes = await fs.readFile(block.path);
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(block.sha256);
      expect(bytes.length).toBe(block.bytes);
    }
  });

  it('should print an elided original byte for byte by a short sha256', async () => {
    const result = await runCli(['show', '8370b47dccff', '--state', STATE_EXAMPLE]);

    expect(result.code).toBe(0);
    expect(result.stdout).toBe(await fs.readFile(path.join(STATE_EXAMPLE, 'elided', `${FIRST_SHA}.txt`), 'utf8'));
  });

  it('should give an original as JSON with its path and the blocks it was elided from', async () => {
    const result = await runCli(['show', FIRST_SHA.toUpperCase(), '--state', STATE_EXAMPLE, '--json']);

    const report = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(report).toMatchObject({
      kind: 'elided',
      sha256: FIRST_SHA,
      path: path.join(STATE_EXAMPLE, 'elided', `${FIRST_SHA}.txt`),
      bytes: 1512,
      intact: true,
      usedBy: [{ key: EXAMPLE_KEY, epoch: 1, ordinal: 0, toolUseId: 'toolu_010000000000000000000001' }],
    });
    expect(report['text']).toBe(await fs.readFile(path.join(STATE_EXAMPLE, 'elided', `${FIRST_SHA}.txt`), 'utf8'));
  });

  it('should refuse ids that are not hex, so no path reaches the disk', async () => {
    for (const id of ['../x', '../../etc/passwd', '/etc/passwd', 'cbf84ec36c85/..', 'xyz123']) {
      const result = await runCli(['show', id, '--state', STATE_EXAMPLE]);

      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe('ctxshed: show: a handle is hex digits only (a sha256, or its first 12 or more digits)\n');
    }
  });

  it('should refuse a prefix shorter than 12 hex digits, in the words seal and unseal use', async () => {
    const result = await runCli(['show', 'cbf84ec36c8', '--state', STATE_EXAMPLE]);
    const seal = await runCli(['seal', 'cbf84ec36c8', '--state', STATE_EXAMPLE]);

    expect(result.code).toBe(2);
    expect(result.stderr).toBe('ctxshed: show: a handle needs at least 12 hex digits, not 11\n');
    expect(seal.stderr).toBe(result.stderr.replace('show:', 'seal:'));
  });

  it('should refuse an ambiguous prefix, listing what it could mean, and say when nothing matches', async () => {
    const ambiguous = await runCli(['show', 'abcdef012345', '--state', scratch]);
    const none = await runCli(['show', '999999999999', '--state', scratch]);

    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toContain(`elided text  ${ONE}`);
    expect(ambiguous.stderr).toContain(`elided text  ${TWO}`);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('has an id starting 999999999999');
  });

  it('should print a shed span by its handle as its rendering, made from its exact bytes', async () => {
    const result = await runCli(['show', SPAN.slice(0, 12), '--state', STATE_EXAMPLE]);

    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    // The same text as the .md beside it, which the same function wrote from the same bytes.
    expect(result.stdout).toBe(await fs.readFile(path.join(STATE_EXAMPLE, 'spans', `${SPAN}.md`), 'utf8'));
  });

  it('should give a shed span as JSON: its files, bytes, whether it is intact and the epoch that shed it', async () => {
    const result = await runCli(['show', SPAN, '--state', STATE_EXAMPLE, '--json']);

    const report = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(report).toMatchObject({
      kind: 'span',
      sha256: SPAN,
      path: path.join(STATE_EXAMPLE, 'spans', `${SPAN}.json`),
      readable: path.join(STATE_EXAMPLE, 'spans', `${SPAN}.md`),
      bytes: 71_975,
      intact: true,
      usedBy: [{ key: '145a183e78ba40f866cb77df454769269018b6755bfba270f27536dcd27009e2', epoch: 1, first: 1, last: 16 }],
    });
    expect(String(report['text'])).toMatch(/^# ctxshed span a79312205cab/);
  });

  it('should print a changed span but say it no longer hashes to its name, and exit 1', async () => {
    const copy = await tempStateDir('ctxshed-show-span-');
    const bytes = '{"role":"user","content":"shed me"}';
    const sha = createHash('sha256').update('something else').digest('hex');
    await fs.mkdir(path.join(copy, 'spans'), { recursive: true });
    await fs.writeFile(path.join(copy, 'spans', `${sha}.json`), bytes);

    const result = await runCli(['show', sha.slice(0, 12), '--state', copy]);

    expect(result.stdout).toContain('shed me');
    expect(result.stderr).toContain(`${sha}.json does not hash to its name`);
    expect(result.code).toBe(1);
    await fs.rm(copy, { recursive: true, force: true });
  });

  it('should end quietly with exit 0 when the reader stops early (| head)', async () => {
    const child = spawn(process.execPath, [CLI_PATH, 'show', SPAN, '--state', STATE_EXAMPLE], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.once('data', () => child.stdout.destroy());

    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));

    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  });

  it('should print a changed original but say it no longer hashes to its name, and exit 1', async () => {
    const result = await runCli(['show', 'abcdef0123451', '--state', scratch]);

    expect(result.stdout).toBe('one');
    expect(result.stderr).toContain(`${ONE}.txt does not hash to its name`);
    expect(result.code).toBe(1);
  });

  it('should show every block a recorded session elided, each original byte for byte', async () => {
    const list = JSON.parse((await runCli(['ls', '--state', session.dir, '--json'])).stdout) as { conversations: Array<{ key: string; epochs: number }> };
    const main = list.conversations.find((c) => c.epochs > 0)!;

    const report = JSON.parse((await runCli(['show', main.key.slice(0, 12), '--state', session.dir, '--json'])).stdout) as ShowConversation;

    expect(report.epochs.map((e) => e.n)).toEqual(Array.from({ length: main.epochs }, (_, i) => i + 1));
    const blocks = report.epochs.flatMap((e) => e.blocks);
    for (const block of blocks.slice(0, 5)) {
      const shown = await runCli(['show', block.sha256.slice(0, 12), '--state', session.dir]);
      expect(shown.stdout).toBe(await fs.readFile(block.path, 'utf8'));
    }
    const text = await runCli(['show', main.key, '--state', session.dir]);
    expect(text.stdout.match(/^epoch \d+ +latched/gm)).toHaveLength(main.epochs);
  });
});
