import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCtxshed } from '../support/cli-process.js';
import { REPO_ROOT } from './cli-run.js';
import { tempStateDir } from '../support/test-proxy.js';

describe('ctxshed usage errors', () => {
  it('should refuse a mistyped flag of rescue with exit 2 and never run the command', async () => {
    const result = await runCtxshed(['rescue', '--rescue-pc', '50', '--', 'sh', '-c', 'echo CHILD RAN']);

    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^ctxshed: Unknown arguments?: rescue-pc/);
  });

  it('should refuse a --labels mode it does not know, in one line, and never run the command', async () => {
    const result = await runCtxshed(['rescue', '--labels', 'vibes', '--', 'sh', '-c', 'echo CHILD RAN']);

    expect(result.code).not.toBe(0);
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
