import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCtxshed } from '../support/cli-process.js';
import { tempStateDir } from '../support/test-proxy.js';

async function rescue(command: readonly string[], extra: readonly string[] = []): Promise<Awaited<ReturnType<typeof runCtxshed>>> {
  const state = await tempStateDir();
  return runCtxshed(['rescue', '--state', state, '--upstream', 'http://127.0.0.1:9', ...extra, '--', ...command]);
}

describe('ctxshed rescue, the wrapper', () => {
  it.each([
    { name: 'exits 0', command: ['sh', '-c', 'exit 0'], code: 0, signal: null },
    { name: 'exits 3', command: ['sh', '-c', 'exit 3'], code: 3, signal: null },
    { name: 'is killed by SIGTERM', command: ['sh', '-c', 'kill -TERM $$'], code: null, signal: 'SIGTERM' },
    { name: 'is killed by SIGKILL', command: ['sh', '-c', 'kill -KILL $$'], code: null, signal: 'SIGKILL' },
  ])('should end like a command that $name', async ({ command, code, signal }) => {
    const result = await rescue(command);

    expect({ code: result.code, signal: result.signal }).toEqual({ code, signal });
  });

  it('should exit 127 with one clear line when the command is not found', async () => {
    const result = await rescue(['ctxshed-no-such-command-here']);

    expect(result.code).toBe(127);
    expect(result.stderr.trim().split('\n').at(-1)).toMatch(/not found.*ctxshed-no-such-command-here|ctxshed-no-such-command-here.*not found/);
  });

  it('should exit 126 when the command is not executable', async () => {
    const dir = await tempStateDir('ctxshed-noexec-');
    const file = path.join(dir, 'script.sh');
    await fs.writeFile(file, '#!/bin/sh\necho hi\n', { mode: 0o644 });

    const result = await rescue([file]);

    expect(result.code).toBe(126);
  });

  it('should give the child ANTHROPIC_BASE_URL on loopback and print one banner line first', async () => {
    const result = await rescue(['sh', '-c', 'echo "$ANTHROPIC_BASE_URL"']);

    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^ctxshed: rescue on at http:\/\/127\.0\.0\.1:\d+ .*70% .*changes request bytes.*originals kept in /);
  });

  it('should run the command unproxied, saying why in one line, when the state directory is unusable', async () => {
    const dir = await tempStateDir();
    const notADir = path.join(dir, 'file');
    await fs.writeFile(notADir, 'x');

    const result = await runCtxshed(['rescue', '--state', notADir, '--', 'sh', '-c', 'echo "[$ANTHROPIC_BASE_URL]"; exit 4'], { ...process.env, ANTHROPIC_BASE_URL: '' });

    expect(result.code).toBe(4);
    expect(result.stdout.trim()).toBe('[]');
    expect(result.stderr).toMatch(/^ctxshed: cannot start the proxy \(.*\); running sh without it\n$/);
  });

  it('should refuse to run the command with --strict when the proxy cannot start', async () => {
    const dir = await tempStateDir();
    const notADir = path.join(dir, 'file');
    await fs.writeFile(notADir, 'x');

    const result = await runCtxshed(['rescue', '--strict', '--state', notADir, '--', 'sh', '-c', 'echo ran']);

    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/--strict: not running sh/);
  });

  it('should refuse a missing command with a usage error', async () => {
    const result = await rescue([]);

    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/name the command to run after --/);
  });
});
