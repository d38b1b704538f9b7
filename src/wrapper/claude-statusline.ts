/**
 * ctxshed in Claude Code's status line: `rescue` gives Claude Code `--settings={"statusLine":...}`
 * running `ctxshed statusline` for the state directory. Settings given with `--settings` win over
 * the user's settings files, so a status line the user already has is kept by composing: ours
 * runs theirs first (`--compose`) and appends to it, never replaces it.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { McpLaunch } from './claude-grant.js';
import { shellQuote } from './shell-quote.js';

/**
 * The settings files that may hold the user's `statusLine`, the one Claude Code would use first:
 * the project's local, then shared settings (from the directory it runs in), then the user's.
 */
export function settingsFilesFor(cwd: string, env: NodeJS.ProcessEnv): string[] {
  const configDir =
    env['CLAUDE_CONFIG_DIR'] !== undefined && env['CLAUDE_CONFIG_DIR'] !== '' ? env['CLAUDE_CONFIG_DIR'] : path.join(env['HOME'] ?? os.homedir(), '.claude');
  return [path.join(cwd, '.claude', 'settings.local.json'), path.join(cwd, '.claude', 'settings.json'), path.join(configDir, 'settings.json')];
}

/** The `statusLine.command` of the first of `files` that has one; undefined when none does or none reads. */
export async function userStatusLine(files: readonly string[]): Promise<string | undefined> {
  for (const file of files) {
    const command = statusLineCommandOf(await fs.readFile(file, 'utf8').catch(() => undefined));
    if (command !== undefined) return command;
  }
  return undefined;
}

/** A settings file's `statusLine.command` (type `command`), else undefined. Pure. */
export function statusLineCommandOf(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  try {
    const settings = JSON.parse(text) as { statusLine?: { type?: unknown; command?: unknown } } | null;
    const line = settings?.statusLine;
    if (typeof line !== 'object' || line === null || line.type !== 'command') return undefined;
    return typeof line.command === 'string' && line.command.trim() !== '' ? line.command : undefined;
  } catch {
    return undefined;
  }
}

/** The word that gives Claude Code ctxshed's status line, composed with `theirs` when there is one. */
export function statusLineWord(root: string, self: McpLaunch, theirs: string | undefined): string {
  const words = [self.node, self.entry, 'statusline', '--state', root, ...(theirs === undefined ? [] : ['--compose', theirs])];
  const settings = { statusLine: { type: 'command', command: words.map(shellQuote).join(' '), padding: 0 } };
  return `--settings=${JSON.stringify(settings)}`;
}
