import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recognizeClaudeCode, type CommandLookup } from '../../src/wrapper/claude-code-command.js';
import { systemLookup } from '../../src/wrapper/command-lookup.js';

const none: CommandLookup = { which: async () => undefined, realpath: async () => undefined, readHead: async () => undefined };

let tmp: string;
beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'ctxshed-claude-cmd-'));
  // The package as npm installs it, its entry point (cli.js, as releases before the native binary had) a stand-in:
  // only its real path inside the package can tell it is Claude Code.
  const installed = path.join(tmp, 'node_modules', '@anthropic-ai', 'claude-code', 'cli.js');
  await fs.mkdir(path.dirname(installed), { recursive: true });
  await fs.writeFile(installed, '#!/bin/sh\necho 2.1.332\n', { mode: 0o755 });
  await fs.symlink(installed, path.join(tmp, 'cc'));
  await fs.writeFile(path.join(tmp, 'launcher'), '#!/bin/sh\nexec node "$HOME/.npm-global/lib/node_modules/@anthropic-ai/claude-code/cli.js" "$@"\n', {
    mode: 0o755,
  });
  await fs.writeFile(path.join(tmp, 'other'), '#!/bin/sh\necho claude\n', { mode: 0o755 });
});
afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

describe('recognizeClaudeCode', () => {
  it('should know the claude executable by its name, wherever it is, without looking', async () => {
    expect(await recognizeClaudeCode(['claude', '-p', 'hi'], none)).toMatchObject({ kind: 'claude-code', argsStart: 1 });
    expect(await recognizeClaudeCode(['/opt/x/claude.exe'], none)).toMatchObject({ kind: 'claude-code', argsStart: 1 });
  });

  it('should follow a link of another name into the installed package, and read a launcher script for it', async () => {
    const lookup = systemLookup(`${tmp}${path.delimiter}/usr/bin`);
    expect(await recognizeClaudeCode(['cc', '--resume'], lookup)).toMatchObject({
      kind: 'claude-code',
      argsStart: 1,
      how: 'cc, which resolves into @anthropic-ai/claude-code',
    });
    expect(await recognizeClaudeCode([path.join(tmp, 'launcher')], lookup)).toMatchObject({ kind: 'claude-code', argsStart: 1 });
    expect(await recognizeClaudeCode(['other'], lookup)).toEqual({ kind: 'other' });
  });

  it('should find the script after node, and the package after npx and its value-less flags', async () => {
    const lookup = systemLookup(process.env['PATH']);
    expect(await recognizeClaudeCode(['node', path.join(tmp, 'cc'), '-p', 'x'], lookup)).toMatchObject({ kind: 'claude-code', argsStart: 2 });
    expect(await recognizeClaudeCode(['npx', '-y', '@anthropic-ai/claude-code', '-p'], none)).toMatchObject({ kind: 'claude-code', argsStart: 3 });
    expect(await recognizeClaudeCode(['npx', '@anthropic-ai/claude-code@2.1.197'], none)).toMatchObject({ kind: 'claude-code', argsStart: 2 });
    // A value-taking npx option could swallow a word: not recognised, no grant.
    expect(await recognizeClaudeCode(['npx', '--package', 'x', '@anthropic-ai/claude-code'], none)).toEqual({ kind: 'other' });
    expect(await recognizeClaudeCode(['node', '--inspect', 'cli.js'], lookup)).toEqual({ kind: 'other' });
  });

  it('should call anything else other, including a lookup that fails', async () => {
    expect(await recognizeClaudeCode(['sh', '-c', 'claude'], systemLookup(process.env['PATH']))).toEqual({ kind: 'other' });
    const throwing: CommandLookup = { ...none, which: () => Promise.reject(new Error('EACCES')) };
    expect(await recognizeClaudeCode(['codex'], throwing)).toEqual({ kind: 'other' });
  });
});
