/**
 * The interactive Claude Code client (its TUI, default permission mode) through `ctxshed rescue`,
 * on a pseudo-terminal: tmux with a private socket, keystrokes sent with send-keys, the screen
 * read with capture-pane. The scripted model asks to Read an elided file; the screen shows either
 * the result or Claude Code's permission prompt. Run with the grant and with --no-grant (the
 * control). Writes `<root>/observations.json` for tui-real-client.test.ts.
 *
 * With `--mode shed`, one session through `ctxshed rescue --mode shed` instead (shed-scenario.ts's
 * flags, through its recording hop): the model loads restore, Reads the project's files until a
 * span is shed, then restores the span by its stub's handle; then the same with --no-grant, the
 * model reading the `.md` path the stub names instead (the control: without the grant, the MCP
 * server is not registered at all, and the Read stops at Claude Code's prompt). Writes `<root>/observations.json` for
 * tui-shed-real-client.test.ts.
 *
 *   node_modules/.bin/tsx test/real-client/tui-scenario.ts --root /tmp/some-empty-dir [--mode shed]
 *
 * The TUI asks three things on a first start that a person answers once: the theme and
 * onboarding, trust of the folder, and whether to use ANTHROPIC_API_KEY. `~/.claude.json` holds
 * those answers (hasCompletedOnboarding, projects[cwd].hasTrustDialogAccepted,
 * customApiKeyResponses.approved with the key's last 20 characters), so the scratch home starts
 * past them.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeElidedFile } from '../../src/state/elided-file.js';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { sha256Hex } from '../../src/state/sha256-hex.js';
import { CLI_PATH } from '../support/cli-process.js';
import { textBlock, toolUse } from '../../src/scripted/message.js';
import { startMessagesApi, type MessagesApi } from '../../src/scripted/messages-api.js';
import { CLAUDE_BIN, clientEnv, isInNetns, MODEL, reexecInNetns } from './client-env.js';
import { mainThread, steppedModel, type Responder } from './grant-models.js';
import { startRecordingHop } from './recording-hop.js';
import { classify } from './rescue-scenario.js';
import { LOAD_ID, READ_MD_ID, RESTORE_ID, saveExchanges, SHED_FLAGS, spanStubsIn, writeClaudeShim, type Exchange } from './shed-scenario.js';
import { linesOf } from './scratch-text.js';
import { StrayWatch } from './pane-stray.js';

export const DONE_TEXT = 'READ-BACK-DONE';
/**
 * Claude Code's permission question: 2.1.197's, and 2.1.328's for a Read outside the working
 * directories (asked in auto mode, its TUI's default permission mode).
 */
export const PROMPT_TEXT = /Do you want to proceed\?|Allow this read outside the working directories\?/;
/** The status line under an idle prompt box: 2.1.197's hint, or 2.1.328's permission mode line. */
export const READY_TEXT = /\? for shortcuts|\(shift\+tab to cycle\)/;
/** The shed session's last words: after the restore, or when no span was ever shed. */
export const SHED_DONE_TEXT = 'SHED-RESTORE-DONE';
export const NO_SPAN_TEXT = 'NO-SPAN-SHED';
/** The shed session's files, as shed-scenario.ts's: about 4,500 scripted tokens each once numbered. */
const SHED_FILE_BYTES = 16 * 1024;
/** Enough files for an epoch to latch (after the eighth, as in shed-scenario.ts), with room to spare. */
export const SHED_FILE_COUNT = 12;
const API_KEY = 'sk-ant-test-000';
/** Polling the screen: the TUI is slow to start under load; this only bounds a hung run. */
const POLL_MS = 500;
const MAX_WAIT_MS = 90_000;
/** Pressing Enter on the typed prompt: how often, and how long to wait for its request each time. */
const ENTER_TRIES = 3;
const ENTER_WAIT_MS = 10_000;
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
  /** ctxshed's lines other than its banner on any screen the run looked at, its history at the end included (pane-stray.ts). */
  readonly stray: string[];
}

/** The status line session: the screen before the first request, and after an epoch latched. */
export interface TuiStatusLineRun {
  readonly ready: string;
  readonly final: string;
  readonly after: string;
  readonly exited: boolean;
  /** The wire log's latches, to tell an epoch happened. */
  readonly latched: number;
  /** Model calls the scripted API refused as over ctxshed's window, as the real API refuses one over the model's. */
  readonly overWindow: number;
  readonly stray: string[];
}

/**
 * The session with an unreachable upstream: the prompt's requests fail (ctxshed answers 502) and
 * Claude Code retries; before issue 41 each failure printed a line of ctxshed's into its input box.
 */
export interface TuiUnreachableRun {
  /** The screen once the wire log held the failed requests, and the stray lines of every screen. */
  readonly final: string;
  readonly stray: string[];
  /** The wire log's 502s: the failures, each recorded there instead. */
  readonly failed: number;
  readonly exited: boolean;
}

export interface TuiObservations {
  readonly statusLine: TuiStatusLineRun;
  readonly unreachable: TuiUnreachableRun;
  readonly isolated: boolean;
  readonly elidedPath: string;
  readonly elidedText: string;
  readonly tmux: string;
  readonly runs: TuiRun[];
}

/** The shed session: its screens, and each request as the client sent it and the upstream got it. */
export interface TuiShedRun {
  readonly grant: boolean;
  readonly ready: string;
  readonly final: string;
  readonly closing: string;
  readonly exited: boolean;
  readonly sawPrompt: boolean;
  readonly enters: number;
  readonly stateDir: string;
  /** Where the exchanges' files are. */
  readonly bodiesDir: string;
  readonly exchanges: Exchange[];
  /** The handle the model took from the first span stub it was shown (absent when none was). */
  readonly handle?: string;
  /** Model calls the scripted API refused as over ctxshed's window. */
  readonly overWindow: number;
  readonly stray: string[];
}

export interface TuiShedObservations {
  readonly isolated: boolean;
  readonly tmux: string;
  readonly shed: TuiShedRun;
  /** The same session with --no-grant, reading the stub's `.md` path back: it should stop at Claude Code's prompt. */
  readonly control: TuiShedRun;
}

export function tmuxVersion(): string | undefined {
  const probe = spawnSync('tmux', ['-V'], { encoding: 'utf8' });
  return probe.status === 0 ? probe.stdout.trim() : undefined;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** One interactive session: the client `rescue` launches, the scripted API behind it, and the prompt typed. */
interface TuiSession {
  readonly name: string;
  readonly root: string;
  readonly upstream: MessagesApi;
  /** `rescue`'s flags before `--`, and the command after it (the client and its arguments). */
  readonly rescueArgs: readonly string[];
  readonly command: readonly string[];
  readonly prompt: string;
  /** The screen texts that end the turn (besides the permission prompt). */
  readonly endings: readonly string[];
  /** After an ending: wait for the screen to match this too (the status line catching up). */
  readonly afterEnding?: RegExp;
  /** Before typing the prompt: wait for the screen to match this too (the status line's first run). */
  readonly beforePrompt?: RegExp;
  /** Where rescue sends the requests, when not to `upstream` (an unreachable one). */
  readonly upstreamUrl?: string;
  /** Whether a request carried the prompt, when the upstream cannot tell (it never gets one). */
  readonly sent?: () => boolean;
  /** An end of the turn the screen does not show (the wire log's failures). */
  readonly done?: () => boolean;
}

/** What the screen showed in one session. */
interface TuiScreens {
  readonly ready: string;
  readonly final: string;
  readonly closing: string;
  readonly exited: boolean;
  /** Whether any screen polled until the turn ended showed a permission prompt. */
  readonly sawPrompt: boolean;
  /** How many times Enter was pressed before a request carried the prompt. */
  readonly enters: number;
  /** The screen once `afterEnding` matched (or it stopped waiting); absent without one. */
  readonly after?: string;
  readonly stray: string[];
}

/**
 * Starts `ctxshed rescue ... -- <command>` in a tmux pane in a fresh project and home, types the
 * prompt once the prompt box is ready, waits for an ending or a permission prompt, then ends the
 * client with Ctrl-C as a person would (answering a prompt "No" first).
 */
async function driveTui(session: TuiSession): Promise<TuiScreens> {
  const home = join(session.root, session.name, 'home');
  const project = projectDirOf(session.root, session.name);
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  writeFileSync(
    join(home, '.claude.json'),
    JSON.stringify({
      hasCompletedOnboarding: true,
      theme: 'dark',
      customApiKeyResponses: { approved: [API_KEY.slice(-20)], rejected: [] },
      projects: { [project]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
    }),
  );
  const socket = `ctxshed-tui-${process.pid}-${session.name}`;
  const tmux = (...args: string[]): string => spawnSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' }).stdout;
  const stray = new StrayWatch();
  const screen = (): string => stray.look(tmux('capture-pane', '-p', '-t', 't'));
  let sawPrompt = false;
  const waitFor = async (test: (s: string) => boolean, maxMs = MAX_WAIT_MS): Promise<string> => {
    for (let waited = 0; waited < maxMs; waited += POLL_MS) {
      const s = screen();
      if (showsPermissionPrompt(s)) sawPrompt = true;
      if (test(s)) return s;
      await sleep(POLL_MS);
    }
    return screen();
  };
  try {
    const env: Record<string, string> = { ...clientEnv(session.upstream.url, home, isInNetns()), ANTHROPIC_API_KEY: API_KEY };
    delete env['IS_SANDBOX'];
    const argv = [
      process.execPath,
      CLI_PATH,
      'rescue',
      ...session.rescueArgs,
      '--upstream',
      session.upstreamUrl ?? session.upstream.url,
      '--',
      ...session.command,
    ];
    const exports = Object.entries(env)
      .map(([k, v]) => `${k}=${shellQuote(v)}`)
      .join(' ');
    // The marker says rescue (and so the client) has exited; `exec sleep` keeps the pane open, deaf
    // to a Ctrl-C sent as the client exits.
    tmux(
      'new-session',
      '-d',
      '-s',
      't',
      '-x',
      '160',
      '-y',
      '50',
      '-c',
      project,
      // The pane's shell lives through every ^C: one that lands while the client runs or while ctxshed
      // shuts down must not end it (trap with a command: the client still gets ^C's default action),
      // and one after it must not cut the closing lines short.
      `trap : INT; cd ${shellQuote(project)} && env -i ${exports} ${argv.map(shellQuote).join(' ')}; trap '' INT; echo ${EXITED}; exec sleep 600`,
    );
    const first = session.beforePrompt;
    const ready = await waitFor((s) => READY_TEXT.test(s) || first?.test(s) === true).then((s) =>
      first === undefined || first.test(s) ? s : waitFor((t) => first.test(t), 20_000),
    );
    tmux('send-keys', '-t', 't', '-l', session.prompt);
    // Typed this fast, the text arrives as a paste, and an Enter sent with it can be taken into the
    // paste: wait for the text on the screen, and press Enter again while no request carries it.
    await waitFor((s) => s.includes(session.prompt), 20_000);
    const sent = session.sent ?? ((): boolean => session.upstream.requests.some((r) => r.body.includes(session.prompt)));
    let enters = 0;
    for (; enters < ENTER_TRIES && !sent(); enters++) {
      tmux('send-keys', '-t', 't', 'Enter');
      for (let waited = 0; waited < ENTER_WAIT_MS && !sent(); waited += POLL_MS) await sleep(POLL_MS);
    }
    const final = await waitFor((s) => session.endings.some((e) => s.includes(e)) || PROMPT_TEXT.test(s) || session.done?.() === true);
    const pattern = session.afterEnding;
    const after = pattern === undefined ? undefined : await waitFor((s) => pattern.test(s), 30_000);
    // Answer a permission prompt "No" (it takes no Ctrl-C), then two Ctrl-C end the client as a
    // person would; wait for that, so nothing still writes to its home when the test cleans up.
    if (PROMPT_TEXT.test(final)) {
      tmux('send-keys', '-t', 't', '3');
      await waitFor((s) => !PROMPT_TEXT.test(s), 20_000);
    }
    // Ctrl-C as a person presses it when a client does not stop: again and again until it exits.
    // The first may only interrupt a turn still running, and the next two within the client's
    // double-press window (about a second) end it. A pause between two presses of a fixed length
    // was outrun on a loaded machine.
    for (let pressed = 0; pressed < 60 && !screen().includes(EXITED); pressed++) {
      tmux('send-keys', '-t', 't', 'C-c');
      await sleep(250);
    }
    await waitFor((s) => s.includes(EXITED), 20_000);
    const closing = screen();
    // The whole history too: a line written and scrolled away since the last look.
    stray.look(tmux('capture-pane', '-p', '-t', 't', '-S', '-'));
    return { ready, final, closing, exited: closing.includes(EXITED), sawPrompt, enters, ...(after === undefined ? {} : { after }), stray: stray.lines };
  } finally {
    tmux('kill-server');
  }
}

/** Claude Code's permission prompt on a screen: its question, or its "Allow" choice. */
export function showsPermissionPrompt(screen: string): boolean {
  return PROMPT_TEXT.test(screen) || /\bAllow\b/.test(screen);
}

function projectDirOf(root: string, name: string): string {
  return join(root, name, 'project');
}

async function runTui(grant: boolean, root: string, stateDir: string, elidedPath: string): Promise<TuiRun> {
  const readId = 'toolu_01TuiRead';
  const upstream = await startMessagesApi({ respond: steppedModel([[toolUse('Read', { file_path: elidedPath }, readId)], [textBlock(DONE_TEXT)]]) });
  try {
    const {
      sawPrompt: _saw,
      enters: _enters,
      ...screens
    } = await driveTui({
      name: grant ? 'grant' : 'nogrant',
      root,
      upstream,
      rescueArgs: ['--state', stateDir, ...(grant ? [] : ['--no-grant'])],
      command: [CLAUDE_BIN, '--model', MODEL],
      prompt: 'Read the elided file back.',
      endings: [DONE_TEXT],
    });
    const carried = upstream.requests.map((r) => r.body.toString('utf8')).find((b) => b.includes(`"tool_use_id":"${readId}"`));
    const result =
      carried === undefined
        ? undefined
        : ((JSON.parse(carried) as { messages: Array<{ content: unknown }> }).messages
            .flatMap((m) => (Array.isArray(m.content) ? (m.content as Array<Record<string, unknown>>) : []))
            .find((b) => b['tool_use_id'] === readId)?.['content'] as string | undefined);
    return { grant, ...screens, ...(result === undefined ? {} : { readResult: result }) };
  } finally {
    await upstream.close();
  }
}

/** The status line session's last words. */
export const STATUS_DONE_TEXT = 'STATUS-LINE-DONE';
/** ctxshed's status line once an epoch latched (report/statusline.ts). */
export const EPOCH_STATUS = /ctxshed · epoch \d+ · \d+\.\d% of \d+k/;
/** Its line before any request of the session. */
export const IDLE_STATUS = /ctxshed on · no request yet/;
const STATUS_FILES = 8;
/** The status line session's window (`--window`). */
const STATUS_WINDOW = 40_000;

/**
 * `rescue -- claude` on a small window: the model Reads the project's files one per step, an epoch
 * latches on the way, and the status line under the prompt box goes from "no request yet" to the
 * epoch. The user has a status line of their own (`~/.claude/settings.json`), kept in front of ours.
 */
async function runStatusLineTui(root: string): Promise<TuiStatusLineRun> {
  const name = 'statusline';
  const projectDir = projectDirOf(root, name);
  mkdirSync(projectDir, { recursive: true });
  mkdirSync(join(root, name, 'home', '.claude'), { recursive: true });
  writeFileSync(join(root, name, 'home', '.claude', 'settings.json'), JSON.stringify({ statusLine: { type: 'command', command: 'echo USER-LINE' } }));
  for (let n = 1; n <= STATUS_FILES; n += 1) writeFileSync(join(projectDir, `f${n}.txt`), linesOf(`f${n}`, SHED_FILE_BYTES));
  let nextFile = 1;
  const upstream = await startMessagesApi({
    // The scripted API refuses a prompt over ctxshed's window, as the real one refuses one over the model's.
    maxPromptTokens: STATUS_WINDOW,
    conversationOf: (req) => `${classify(req)} ${String(req.headers['x-claude-code-agent-id'] ?? '')}`,
    respond: mainThread(() => {
      if (nextFile > STATUS_FILES) return [textBlock(STATUS_DONE_TEXT)];
      const n = nextFile++;
      return [toolUse('Read', { file_path: join(projectDir, `f${n}.txt`) }, `toolu_01TuiStatF${String(n).padStart(2, '0')}0000000`)];
    }),
  });
  const stateDir = join(root, name, 'state');
  try {
    const screens = await driveTui({
      name,
      root,
      upstream,
      rescueArgs: ['--state', stateDir, '--window', String(STATUS_WINDOW), '--keep-recent', '2'],
      command: [CLAUDE_BIN, '--model', MODEL],
      prompt: 'Read the scratch files one by one.',
      endings: [STATUS_DONE_TEXT],
      afterEnding: EPOCH_STATUS,
      beforePrompt: IDLE_STATUS,
    });
    const wire = readFileSync(join(stateDir, 'wire.jsonl'), 'utf8');
    const latched = wire.split('\n').filter((line) => line.includes('"latched":')).length;
    return {
      ready: screens.ready,
      final: screens.final,
      after: screens.after ?? '',
      exited: screens.exited,
      latched,
      overWindow: upstream.refusedForSize(),
      stray: screens.stray,
    };
  } finally {
    await upstream.close();
  }
}

/** How many failed requests the unreachable session waits for: Claude Code retries each at once, then backs off. */
const UNREACHABLE_FAILURES = 3;

/**
 * `rescue -- claude` with an upstream nobody listens on: the prompt's request and Claude Code's
 * retries each get ctxshed's 502, recorded in the wire log; the screens are watched for any line of
 * ctxshed's after the banner until the wire log holds `UNREACHABLE_FAILURES` of them.
 */
async function runUnreachableTui(root: string): Promise<TuiUnreachableRun> {
  const name = 'unreachable';
  const stateDir = join(root, name, 'state');
  // A port that was just listened on and is closed again: nothing answers there.
  const closed = await startMessagesApi();
  const upstreamUrl = closed.url;
  await closed.close();
  const failed = (): number => {
    try {
      return readFileSync(join(stateDir, 'wire.jsonl'), 'utf8')
        .split('\n')
        .filter((line) => line.includes('"status":502')).length;
    } catch {
      return 0;
    }
  };
  const screens = await driveTui({
    name,
    root,
    upstream: closed,
    upstreamUrl,
    rescueArgs: ['--state', stateDir],
    command: [CLAUDE_BIN, '--model', MODEL],
    prompt: 'Say hello.',
    endings: [],
    sent: () => failed() > 0,
    done: () => failed() >= UNREACHABLE_FAILURES,
  });
  return { final: screens.final, stray: screens.stray, failed: failed(), exited: screens.exited };
}

/**
 * The shed session's model: loads restore with ToolSearch, then Reads the project's files one per
 * step until a request shows a span stub; then gets that span back by the stub's handle with
 * restore (or, `viaRead`, with a Read of the `.md` path the stub names), and ends.
 */
function shedModel(projectDir: string, viaRead: boolean, seen: { handle?: string }): Responder {
  let loaded = false;
  let nextFile = 1;
  return mainThread((req) => {
    if (!loaded) {
      loaded = true;
      return [toolUse('ToolSearch', { query: 'select:mcp__ctxshed__restore', max_results: 5 }, LOAD_ID)];
    }
    if (seen.handle !== undefined) return [textBlock(SHED_DONE_TEXT)];
    const [first] = spanStubsIn(req);
    if (first !== undefined) {
      seen.handle = first.sha256;
      const md = /or read (\/\S+\.md)[ ,]/.exec(first.text)?.[1] ?? '';
      const back = viaRead ? toolUse('Read', { file_path: md }, READ_MD_ID) : toolUse('mcp__ctxshed__restore', { handle: first.sha256 }, RESTORE_ID);
      return [textBlock('Part of the conversation was shed; bringing it back.'), back];
    }
    if (nextFile > SHED_FILE_COUNT) return [textBlock(NO_SPAN_TEXT)];
    const n = nextFile++;
    return [toolUse('Read', { file_path: join(projectDir, `f${n}.txt`) }, `toolu_01TuiReadF${String(n).padStart(2, '0')}0000000`)];
  });
}

/**
 * The shed session: `rescue --mode shed` (shed-scenario.ts's flags) launching the interactive
 * client through the recording hop (its `claude` shim), so each request is kept as the client sent
 * it and as the upstream got it.
 */
async function runShedTui(root: string, grant: boolean): Promise<TuiShedRun> {
  const name = grant ? 'shed' : 'shed-nogrant';
  const projectDir = projectDirOf(root, name);
  const stateDir = join(root, name, 'state');
  const bodiesDir = join(root, name, 'bodies');
  for (const dir of [projectDir, bodiesDir]) mkdirSync(dir, { recursive: true });
  for (let n = 1; n <= SHED_FILE_COUNT; n += 1) writeFileSync(join(projectDir, `f${n}.txt`), linesOf(`f${n}`, SHED_FILE_BYTES));
  const seen: { handle?: string } = {};
  const upstream = await startMessagesApi({
    maxPromptTokens: Number(SHED_FLAGS[SHED_FLAGS.indexOf('--window') + 1]),
    conversationOf: (req) => `${classify(req)} ${String(req.headers['x-claude-code-agent-id'] ?? '')}`,
    respond: shedModel(projectDir, !grant, seen),
  });
  const targetFile = join(root, name, 'proxy-url');
  let proxyUrl: string | undefined;
  const hop = await startRecordingHop(() => (proxyUrl ??= readFileSync(targetFile, 'utf8')), 0);
  const shim = writeClaudeShim(join(root, name, 'bin'), targetFile, hop.url);
  let screens: TuiScreens;
  try {
    screens = await driveTui({
      name,
      root,
      upstream,
      rescueArgs: [...SHED_FLAGS, '--state', stateDir, ...(grant ? [] : ['--no-grant'])],
      command: [shim, '--model', MODEL],
      prompt: 'Read the scratch files one by one, then bring back what was shed.',
      endings: [SHED_DONE_TEXT, NO_SPAN_TEXT],
    });
  } finally {
    await hop.close();
    await upstream.close();
  }
  const { exchanges } = saveExchanges(hop.requests, upstream.requests, bodiesDir);
  const overWindow = upstream.refusedForSize();
  return { grant, ...screens, stateDir, bodiesDir, exchanges, overWindow, ...(seen.handle === undefined ? {} : { handle: seen.handle }) };
}

function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

async function main(): Promise<void> {
  const i = process.argv.indexOf('--root');
  const rootArg = i === -1 ? undefined : process.argv[i + 1];
  if (rootArg === undefined) throw new Error('usage: tui-scenario.ts --root <empty dir> [--mode shed]');
  const relaunched = reexecInNetns();
  if (relaunched !== undefined) process.exit(await relaunched);
  const root = resolve(rootArg);
  if (process.argv.includes('--mode') && process.argv[process.argv.indexOf('--mode') + 1] === 'shed') {
    const observations: TuiShedObservations = {
      isolated: isInNetns(),
      tmux: tmuxVersion() ?? '',
      shed: await runShedTui(root, true),
      control: await runShedTui(root, false),
    };
    writeFileSync(join(root, 'observations.json'), JSON.stringify(observations, null, 2));
    return;
  }
  const state = await openStateDir(join(root, 'state'));
  const text = linesOf('elided', 4096);
  const sha = sha256Hex(Buffer.from(text));
  await writeElidedFile(state, sha, Buffer.from(text));
  const elidedPath = join(state.elidedDir, `${sha}.txt`);
  const runs = [await runTui(true, root, state.root, elidedPath), await runTui(false, root, state.root, elidedPath)];
  const statusLine = await runStatusLineTui(root);
  const unreachable = await runUnreachableTui(root);
  const observations: TuiObservations = { isolated: isInNetns(), elidedPath, elidedText: text, tmux: tmuxVersion() ?? '', runs, statusLine, unreachable };
  writeFileSync(join(root, 'observations.json'), JSON.stringify(observations, null, 2));
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(fileURLToPath(import.meta.url))) await main();
