/**
 * Where `ctxshed replay` reads from with no path (Claude Code's projects folder, under
 * `CLAUDE_CONFIG_DIR` when set: https://code.claude.com/docs/en/claude-directory), and its
 * `--since`/`--until` days, and the width its text is laid out to.
 */
import os from 'node:os';
import path from 'node:path';
import type { SessionInput } from '../replay/read-sessions.js';
import { DEFAULT_TEXT_WIDTH, MIN_TEXT_WIDTH } from '../replay/text-layout.js';
import { CliError } from './cli-error.js';

export const DEFAULT_PROJECTS_HINT = '$CLAUDE_CONFIG_DIR/projects, else ~/.claude/projects';

/** Claude Code's projects folder: `$CLAUDE_CONFIG_DIR/projects`, else `~/.claude/projects`. */
export function defaultProjectsFolder(env: NodeJS.ProcessEnv = process.env): string {
  const config = env['CLAUDE_CONFIG_DIR'];
  return path.join(config !== undefined && config !== '' ? config : path.join(os.homedir(), '.claude'), 'projects');
}

/** The days `--since` and `--until` name, as a range of ms (UTC days, both ends included). */
export function dayRange(since: string | undefined, until: string | undefined): { from: number; to: number } {
  const from = since === undefined ? Number.NEGATIVE_INFINITY : dayStart(since, '--since');
  const to = until === undefined ? Number.POSITIVE_INFINITY : dayStart(until, '--until') + 86_400_000 - 1;
  if (from > to) throw new CliError(`--since ${since ?? ''} is after --until ${until ?? ''}`, 2);
  return { from, to };
}

/** Whether a session has a request in the range (a session without times is kept only with no range). */
export function inDays(session: SessionInput, range: { from: number; to: number }): boolean {
  if (range.from === Number.NEGATIVE_INFINITY && range.to === Number.POSITIVE_INFINITY) return true;
  return session.conversations.some((c) => c.requests.some((r) => r.timeMs >= range.from && r.timeMs <= range.to));
}

function dayStart(text: string, flag: string): number {
  const m = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(text);
  const ms = m === null ? Number.NaN : Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (m === null || Number.isNaN(ms) || new Date(ms).getUTCDate() !== Number(m[3]))
    throw new CliError(`${flag} takes a day as YYYY-MM-DD or YYYYMMDD, not ${text}`, 2);
  return ms;
}

/**
 * The width the replay's text is laid out to: the terminal's when stdout is one, else `COLUMNS`
 * when it is a number, else a fixed width (a pipe or a file has no width of its own); never
 * narrower than `MIN_TEXT_WIDTH`.
 */
export function textWidth(stdout: { readonly isTTY?: boolean; readonly columns?: number }, env: NodeJS.ProcessEnv = process.env): number {
  const fromEnv = Number.parseInt(env['COLUMNS'] ?? '', 10);
  const width =
    stdout.isTTY === true && stdout.columns !== undefined && stdout.columns > 0
      ? stdout.columns
      : Number.isInteger(fromEnv) && fromEnv > 0
        ? fromEnv
        : DEFAULT_TEXT_WIDTH;
  return Math.max(MIN_TEXT_WIDTH, width);
}
