import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCtxshed } from '../support/cli-process.js';
import { REPO_ROOT } from './cli-run.js';
import { tempStateDir } from '../support/test-proxy.js';

describe('ctxshed usage errors', () => {
  it('should hint at -- when rescue is given the command without it, exit 2, and run nothing', async () => {
    const result = await runCtxshed(['rescue', 'true']);

    expect(result.code).toBe(2);
    expect(result.stderr).toBe('ctxshed: Unknown argument: true; put the command after --, e.g. ctxshed rescue -- true\n');
  });

  it('should suggest the command a typo meant, and exit 2', async () => {
    const result = await runCtxshed(['resuce', '--', 'claude']);

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Did you mean rescue?');
  });

  it('should take -h for --help on every command', async () => {
    for (const command of [[], ['ls'], ['rescue'], ['statusline']]) {
      const result = await runCtxshed([...command, '-h']);

      expect({ command, code: result.code }).toEqual({ command, code: 0 });
      expect(result.stdout).toMatch(/^ctxshed/);
    }
  });

  it('should exit 2 on a flag value it refuses, and list --mode, --labels and --latch-at choices in --help', async () => {
    const bad = await runCtxshed(['rescue', '--mode', 'fast', '--', 'sh', '-c', 'echo CHILD RAN']);
    const help = await runCtxshed(['rescue', '--help']);

    expect([bad.code, bad.stdout]).toEqual([2, '']);
    expect(bad.stderr).toBe('ctxshed: --mode takes rescue or shed, not "fast"\n');
    const flat = help.stdout.replace(/\s+/g, ' ');
    expect(flat).toContain('choices: rescue, shed');
    expect(flat).toContain('choices: local, model');
    expect(flat).toContain('choices: anywhere, prompt');
  });

  it('should refuse a mistyped flag of rescue with exit 2, name it once as typed with the flag it meant, and never run the command', async () => {
    const result = await runCtxshed(['rescue', '--rescue-pcnt', '50', '--', 'sh', '-c', 'echo CHILD RAN']);

    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('ctxshed: unknown flag --rescue-pcnt; did you mean --rescue-pct?\n');
  });

  it('should refuse a flag value that is no number saying what it was given and what it takes, on every command that shares it', async () => {
    for (const command of [['serve'], ['demo'], ['replay', 'test/fixtures/transcripts/short.jsonl'], ['status', '--state', 'state.example']]) {
      const result = await runCtxshed([...command, '--rescue-pct', 'abc']);

      expect({ command, code: result.code, stderr: result.stderr }).toEqual({
        command,
        code: 2,
        stderr: 'ctxshed: --rescue-pct takes a percentage above 0 and at most 100 (e.g. 70), not "abc"\n',
      });
    }
  });

  it('should say a flag given without its value needs one', async () => {
    const result = await runCtxshed(['serve', '--window']);

    expect([result.code, result.stderr]).toEqual([2, 'ctxshed: --window needs a value\n']);
  });

  it('should refuse a --labels mode it does not know, in one line, and never run the command', async () => {
    const result = await runCtxshed(['rescue', '--labels', 'vibes', '--', 'sh', '-c', 'echo CHILD RAN']);

    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim()).toBe('ctxshed: --labels takes local or model, not "vibes"');
  });

  it('should refuse a mistyped flag of elide without writing any elided file', async () => {
    const state = await tempStateDir();
    const body = path.join(state, 'body.json');
    await fs.writeFile(body, JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x' }] }));

    const result = await runCtxshed(['elide', body, '--dryrun', '--state', path.join(state, 'st')]);

    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    await expect(fs.stat(path.join(state, 'st'))).rejects.toThrow();
  });

  it('should report a path it cannot write in one line, without a stack', async () => {
    const dir = await tempStateDir();
    // A real transcript (an empty file is refused as no transcript before the page is written).
    const transcript = path.join(dir, 'short.jsonl');
    await fs.copyFile(path.join(REPO_ROOT, 'test', 'fixtures', 'transcripts', 'short.jsonl'), transcript);

    const result = await runCtxshed(['replay', transcript, '--html', dir]);

    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^ctxshed: EISDIR/);
  });
});
