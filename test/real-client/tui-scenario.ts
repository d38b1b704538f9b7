/**
 * The interactive Claude Code client (its TUI, default permission mode) through `ctxshed rescue`,
 * on a pseudo-terminal: tmux with a private socket, keystrokes sent with send-keys, the screen
 * read with capture-pane. The scripted model asks to Read an elided file; the screen shows either
 * the result or Claude Code's permission prompt. Run with the grant and with --no-grant (the
 * control). Writes `<root>/observations.json` for tui-real-client.test.ts.
 *
 *   node_modules/.bin/tsx test/real-client/tui-scenario.ts --root /tmp/some-empty-dir
 *
 * The TUI asks three things on a first start that a person answers once: the theme and
 * onboarding, trust of the folder, and whether to use ANTHROPIC_API_KEY. `~/.claude.json` holds
 * those answers (hasCompletedOnboarding, projects[cwd].hasTrustDialogAccepted,
 * customApiKeyResponses.approved with the key's last 20 characters), so the scratch home starts
 * past them.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeElidedFile } from '../../src/state/elided-file.js';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { sha256Hex } from '../../src/state/sha256-hex.js';
import { CLI_PATH } from '../support/cli-process.js';
import { textBlock, toolUse } from '../../src/scripted/message.js';
import { startMessagesApi } from '../../src/scripted/messages-api.js';
import { CLAUDE_BIN, clientEnv, isInNetns, MODEL, reexecInNetns } from './client-env.js';
import { steppedModel } from './grant-models.js';
import { linesOf } from './scratch-text.js';

export const DONE_TEXT = 'READ-BACK-DONE';
export const PROMPT_TEXT = 'Do you want to proceed?';
const API_KEY = 'sk-ant-test-000';
/** Polling the screen: the TUI is slow to start under load; this only bounds a hung run. */
const POLL_MS = 500;
const MAX_WAIT_MS = 90_000;
/** Printed in the pane once rescue has exited. */
const EXITED = 'CTXSHED-TUI-RUN-EXITED';

export interface TuiRun {
  readonly grant: boolean;
  /** The screen once the prompt box was ready, and once the turn ended or stopped at a prompt. */
  readonly ready: string;
  readonly final: string;
  /** What the Read returned, as the next request carried it (absent when it never ran). */
  readonly readResult?: string;
  /** The screen when the pane was closed, and whether rescue (and so the client) had exited by then. */
  readonly closing: string;
  readonly exited: boolean;
}

export interface TuiObservations {
  readonly isolated: boolean;
  readonly elidedPath: string;
  readonly elidedText: string;
  readonly tmux: string;
  readonly runs: TuiRun[];
}

export function tmuxVersion(): string | undefined {
  const probe = spawnSync('tmux', ['-V'], { encoding: 'utf8' });
  return probe.status === 0 ? probe.stdout.trim() : undefined;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function runTui(grant: boolean, root: string, stateDir: string, elidedPath: string): Promise<TuiRun> {
  const name = grant ? 'grant' : 'nogrant';
  const home = join(root, name, 'home');
  const project = join(root, name, 'project');
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  writeFileSync(join(home, '.claude.json'), JSON.stringify({
    hasCompletedOnboarding: true,
    theme: 'dark',
    customApiKeyResponses: { approved: [API_KEY.slice(-20)], rejected: [] },
    projects: { [project]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
  }));
  const readId = 'toolu_01TuiRead';
  const upstream = await startMessagesApi({ respond: steppedModel([[toolUse('Read', { file_path: elidedPath }, readId)], [textBlock(DONE_TEXT)]]) });
  const socket = `ctxshed-tui-${process.pid}-${name}`;
  const tmux = (...args: string[]): string => spawnSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' }).stdout;
  const screen = (): string => tmux('capture-pane', '-p', '-t', 't');
  const waitFor = async (test: (s: string) => boolean, maxMs = MAX_WAIT_MS): Promise<string> => {
    for (let waited = 0; waited < maxMs; waited += POLL_MS) {
      const s = screen();
      if (test(s)) return s;
      await sleep(POLL_MS);
    }
    return screen();
  };
  try {
    const env: Record<string, string> = { ...clientEnv(upstream.url, home, isInNetns()), ANTHROPIC_API_KEY: API_KEY };
    delete env['IS_SANDBOX'];
    const argv = [process.execPath, CLI_PATH, 'rescue', '--state', stateDir, '--upstream', upstream.url, ...(grant ? [] : ['--no-grant']), '--', CLAUDE_BIN, '--model', MODEL];
    const exports = Object.entries(env).map(([k, v]) => `${k}=${shellQuote(v)}`).join(' ');
    // The marker says rescue (and so the client) has exited; `exec sleep` keeps the pane open.
    tmux('new-session', '-d', '-s', 't', '-x', '160', '-y', '50', '-c', project, `cd ${shellQuote(project)} && env -i ${exports} ${argv.map(shellQuote).join(' ')}; echo ${EXITED}; exec sleep 600`);
    const ready = await waitFor((s) => s.includes('? for shortcuts'));
    tmux('send-keys', '-t', 't', '-l', 'Read the elided file back.');
    tmux('send-keys', '-t', 't', 'Enter');
    const final = await waitFor((s) => s.includes(DONE_TEXT) || s.includes(PROMPT_TEXT));
    const carried = upstream.requests.map((r) => r.body.toString('utf8')).find((b) => b.includes(`"tool_use_id":"${readId}"`));
    const result = carried === undefined ? undefined : ((JSON.parse(carried) as { messages: Array<{ content: unknown }> }).messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as Array<Record<string, unknown>>) : [])).find((b) => b['tool_use_id'] === readId)?.['content'] as string | undefined);
    // Answer a permission prompt "No" (it takes no Ctrl-C), then two Ctrl-C end the client as a
    // person would; wait for that, so nothing still writes to its home when the test cleans up.
    if (final.includes(PROMPT_TEXT)) {
      tmux('send-keys', '-t', 't', '3');
      await waitFor((s) => !s.includes(PROMPT_TEXT), 20_000);
    }
    for (let i = 0; i < 3 && !screen().includes(EXITED); i++) {
      tmux('send-keys', '-t', 't', 'C-c');
      await sleep(POLL_MS);
      tmux('send-keys', '-t', 't', 'C-c');
      await waitFor((s) => s.includes(EXITED), 20_000);
    }
    const closing = screen();
    return { grant, ready, final, closing, exited: closing.includes(EXITED), ...(result === undefined ? {} : { readResult: result }) };
  } finally {
    tmux('kill-server');
    await upstream.close();
  }
}

function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

async function main(): Promise<void> {
  const i = process.argv.indexOf('--root');
  const rootArg = i === -1 ? undefined : process.argv[i + 1];
  if (rootArg === undefined) throw new Error('usage: tui-scenario.ts --root <empty dir>');
  const relaunched = reexecInNetns();
  if (relaunched !== undefined) process.exit(await relaunched);
  const root = resolve(rootArg);
  const state = await openStateDir(join(root, 'state'));
  const text = linesOf('elided', 4096);
  const sha = sha256Hex(Buffer.from(text));
  await writeElidedFile(state, sha, Buffer.from(text));
  const elidedPath = join(state.elidedDir, `${sha}.txt`);
  const runs = [await runTui(true, root, state.root, elidedPath), await runTui(false, root, state.root, elidedPath)];
  const observations: TuiObservations = { isolated: isInNetns(), elidedPath, elidedText: text, tmux: tmuxVersion() ?? '', runs };
  writeFileSync(join(root, 'observations.json'), JSON.stringify(observations, null, 2));
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(fileURLToPath(import.meta.url))) await main();
