/**
 * The interactive Codex TUI through `ctxshed rescue -- codex`, in Codex's default permissions, on
 * a pseudo-terminal: tmux with a private socket, keystrokes sent with send-keys, the screen read
 * with capture-pane; offline inside `unshare -n`, against the scripted Responses API. Writes
 * `<root>/observations.json` and every body the upstream got (`<root>/bodies/`) for
 * tui-codex.test.ts.
 *
 *   node_modules/.bin/tsx test/real-client/tui-codex-scenario.ts --root /tmp/some-empty-dir
 *
 * The session: one prompt makes the scripted model `cat` notes until the upstream reports the
 * window 70% full and an epoch latches; the first stub it sees it reads back with Codex's shell
 * tool (`cat <state>/elided/<sha>.txt`); then, as a control, it asks to run a command outside the
 * sandbox, which must show Codex's approval prompt (declined with Esc, as a person would); a
 * second prompt ends the session. The screen is watched throughout for the approval prompt.
 *
 * A first start asks two things a person answers once: how to sign in, and (in a git repository)
 * whether to trust the folder. The scratch home starts past both, as a user's would:
 * `codex login --with-api-key` (the key on stdin, saved to `~/.codex/auth.json`) and
 * `[projects."<dir>"] trust_level = "trusted"` in `~/.codex/config.toml`, which is what the
 * trust screen writes. Nothing else is configured: sandbox and approvals are Codex's defaults.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ReceivedRequest } from '../../src/scripted/received-request.js';
import { CLI_PATH } from '../support/cli-process.js';
import { functionCall, isResponsesRequest, messageItem, responsesUsage, startOpenAiUpstream, type OpenAiReply } from '../support/responses-upstream.js';
import { isInNetns, reexecInNetns } from './client-env.js';
import { CODEX_BIN, CODEX_MODEL, CODEX_TEST_KEY, codexEnv, codexTurnMetaOf, type CodexTurnMeta } from './codex-env.js';
import { CANNOT_ISOLATE } from './codex-runs.js';
import { firstStub } from './rescue-codex-scenario.js';
import { linesOf } from './scratch-text.js';
import { tmuxVersion } from './tui-scenario.js';
import { StrayWatch } from './pane-stray.js';

/** The two prompts typed into the TUI: the session, and one more turn after the declined control. */
export const PROMPTS = ['Read the notes one by one.', 'Carry on.'] as const;
/** The model's answer to the second prompt: on screen once the session is over. */
export const DONE_TEXT = 'CODEX-TUI-DONE';
/** Codex 0.169.0's approval prompt for a command. */
export const APPROVAL_TEXT = 'Would you like to run the following command?';
/** What the model says when no stub ever showed (the run then fails fast instead of timing out). */
export const NO_STUB_TEXT = 'CODEX-TUI-NO-STUB';
/** The call that reads a stub's elided file back. */
export const RECALL_CALL_ID = 'call_tui_recall';
/** The control: a call that asks to run outside the sandbox, so Codex must ask the user. */
export const CONTROL_CALL_ID = 'call_tui_control';
/** A window Codex's 72 KB opening body fills to about 45%, so four or five notes push it over 70%. */
export const RESCUE_FLAGS = ['--window', '40000', '--rescue-pct', '70', '--keep-recent', '2', '--min-bytes', '1024'];
const FILE_BYTES = 12 * 1024;
/** The notes in the project, read one per model call until an epoch latches. */
export const FILE_NAMES = Array.from({ length: 8 }, (_, i) => `n${i + 1}.txt`);
const BYTES_PER_TOKEN = 4;
const NOTE_CALL = 'call_tui_note_';
/** Polling the screen; the waits only bound a hung run. */
const POLL_MS = 500;
const MAX_WAIT_MS = 60_000;
/** Printed in the pane once rescue has exited. */
const EXITED = 'CTXSHED-CODEX-TUI-EXITED';
const READY = '? for shortcuts';

/** One model call the upstream got. */
export interface UpstreamCall {
  /** Under `<root>/bodies`: the body the upstream got. */
  readonly file: string;
  readonly turn: CodexTurnMeta;
  readonly sessionId?: string;
}

/** What the scenario saw, for tui-codex.test.ts. */
export interface CodexTuiObservations {
  readonly isolated: boolean;
  readonly tmux: string;
  readonly stateDir: string;
  /** The file the control command would create; it must not exist (the prompt was declined). */
  readonly controlFile: string;
  /** The screen once the composer was ready, at the approval prompt, and after the last turn. */
  readonly ready: string;
  readonly atApproval: string;
  readonly final: string;
  /** Every distinct screen that showed Codex's approval prompt, in order. */
  readonly approvals: string[];
  readonly closing: string;
  readonly exited: boolean;
  /** ctxshed's lines other than its banner on any screen the run looked at, its history at the end included (pane-stray.ts). */
  readonly stray: string[];
  readonly calls: UpstreamCall[];
  readonly recall?: { readonly path: string; readonly sha256: string };
}

interface Item {
  readonly type?: string;
  readonly role?: string;
  readonly call_id?: string;
  readonly content?: unknown;
}

// ---- the scripted model -----------------------------------------------------------------

function makeModel(controlFile: string): { respond: (req: ReceivedRequest) => OpenAiReply | undefined; recall: () => CodexTuiObservations['recall'] } {
  let recall: CodexTuiObservations['recall'];
  const previous = new Map<string, number>();
  const respond = (req: ReceivedRequest): OpenAiReply | undefined => {
    if (!isResponsesRequest(req)) return undefined;
    const input = Math.ceil(req.body.length / BYTES_PER_TOKEN);
    const session = String(req.headers['session-id']);
    const usage = responsesUsage(input, Math.min(previous.get(session) ?? 0, input));
    previous.set(session, input);
    if (codexTurnMetaOf(req.headers).threadSource === 'thread_title') return { kind: 'response', output: [messageItem('Read the notes')], usage };
    const items = (JSON.parse(req.body.toString('utf8')) as { input?: Item[] }).input ?? [];
    const said = (text: string): boolean => items.some((i) => i.role === 'user' && JSON.stringify(i.content ?? '').includes(text));
    const answered = (callId: string): boolean => items.some((i) => i.call_id === callId && i.type === 'function_call_output');
    if (said(PROMPTS[1])) return { kind: 'response', output: [messageItem(DONE_TEXT)], usage };
    if (recall === undefined) {
      const stub = firstStub(req.body);
      if (stub !== undefined) {
        recall = stub;
        return { kind: 'response', output: [functionCall('exec_command', { cmd: `cat ${stub.path}` }, RECALL_CALL_ID)], usage };
      }
      const read = items.filter((i) => i.type === 'function_call_output' && (i.call_id ?? '').startsWith(NOTE_CALL)).length;
      const next = FILE_NAMES[read];
      if (next === undefined) return { kind: 'response', output: [messageItem(NO_STUB_TEXT)], usage };
      return { kind: 'response', output: [functionCall('exec_command', { cmd: `cat ${next}` }, `${NOTE_CALL}${read + 1}`)], usage };
    }
    // The control: a command that asks to leave the sandbox, which the default approval mode must put to the user.
    if (answered(RECALL_CALL_ID)) {
      const control = {
        cmd: `touch ${controlFile}`,
        sandbox_permissions: 'require_escalated',
        justification: 'May I create the control file outside the sandbox?',
      };
      return { kind: 'response', output: [functionCall('exec_command', control, CONTROL_CALL_ID)], usage };
    }
    return { kind: 'response', output: [messageItem('Waiting.')], usage };
  };
  return { respond, recall: () => recall };
}

// ---- the terminal -----------------------------------------------------------------------

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The scratch home past the first-run screens, as a user's is: signed in with an API key, the project trusted. */
function prepareHome(home: string, project: string): void {
  mkdirSync(join(home, '.codex'), { recursive: true });
  const login = spawnSync(CODEX_BIN, ['login', '--with-api-key'], { input: CODEX_TEST_KEY, env: codexEnv(home), encoding: 'utf8' });
  if (login.status !== 0) throw new Error(`codex login --with-api-key exited ${String(login.status)}: ${login.stderr}`);
  writeFileSync(join(home, '.codex', 'config.toml'), `[projects.${JSON.stringify(project)}]\ntrust_level = "trusted"\n`);
}

async function main(): Promise<void> {
  const i = process.argv.indexOf('--root');
  const rootArg = i === -1 ? undefined : process.argv[i + 1];
  if (rootArg === undefined) throw new Error('usage: tui-codex-scenario.ts --root <empty dir>');
  const relaunched = reexecInNetns();
  if (relaunched !== undefined) process.exit(await relaunched);
  // Codex talks to more than its base URL (model discovery, sign-in): never run it with a network.
  if (!isInNetns()) process.exit(CANNOT_ISOLATE);

  const root = resolve(rootArg);
  const home = join(root, 'home');
  const project = join(root, 'project');
  const stateDir = join(root, 'state');
  const bodiesDir = join(root, 'bodies');
  const controlFile = join(root, 'control-was-approved');
  for (const dir of [home, project, bodiesDir]) mkdirSync(dir, { recursive: true });
  spawnSync('git', ['init', '-q', project]);
  for (const name of FILE_NAMES) writeFileSync(join(project, name), linesOf(name.replace('.txt', ''), FILE_BYTES));
  prepareHome(home, project);

  const model = makeModel(controlFile);
  const upstream = await startOpenAiUpstream(model.respond);
  const socket = `ctxshed-codex-tui-${process.pid}`;
  const tmux = (...args: string[]): string => spawnSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' }).stdout;
  const stray = new StrayWatch();
  const screen = (): string => stray.look(tmux('capture-pane', '-p', '-t', 't'));
  const approvals: string[] = [];
  const waitFor = async (test: (s: string) => boolean, maxMs = MAX_WAIT_MS): Promise<string> => {
    for (let waited = 0; ; waited += POLL_MS) {
      const s = screen();
      if (s.includes(APPROVAL_TEXT) && approvals.at(-1) !== s) approvals.push(s);
      if (test(s) || waited >= maxMs) return s;
      await sleep(POLL_MS);
    }
  };
  // Type a prompt and press Enter until Codex sends it (an Enter during start-up can be lost).
  const modelCalls = (): number => upstream.requests.filter(isResponsesRequest).length;
  const submit = async (text: string): Promise<void> => {
    const before = modelCalls();
    tmux('send-keys', '-t', 't', '-l', text);
    for (let n = 0; n < 3 && modelCalls() === before; n++) {
      await sleep(POLL_MS);
      tmux('send-keys', '-t', 't', 'Enter');
      for (let waited = 0; waited < 10_000 && modelCalls() === before; waited += POLL_MS) await sleep(POLL_MS);
    }
  };
  let ready = '';
  let atApproval = '';
  let final = '';
  let closing = '';
  try {
    const env = { ...codexEnv(home), TERM: 'xterm-256color' };
    const argv = [
      process.execPath,
      CLI_PATH,
      'rescue',
      ...RESCUE_FLAGS,
      '--state',
      stateDir,
      '--upstream',
      upstream.baseUrl,
      '--',
      CODEX_BIN,
      '-m',
      CODEX_MODEL,
    ];
    const exports = Object.entries(env)
      .map(([k, v]) => `${k}=${shellQuote(v)}`)
      .join(' ');
    // The marker says rescue (and so Codex) has exited; `exec sleep` keeps the pane open.
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
    // Ready once the footer names the session's folder, not at the first hint line.
    ready = await waitFor((s) => s.includes(READY) && s.includes(`· ${project}`));
    await submit(PROMPTS[0]);
    atApproval = await waitFor((s) => s.includes(APPROVAL_TEXT) || s.includes(NO_STUB_TEXT));
    // Decline as a person would ("No, and tell Codex what to do differently (esc)"), then go on.
    if (atApproval.includes(APPROVAL_TEXT)) {
      tmux('send-keys', '-t', 't', 'Escape');
      await waitFor((s) => !s.includes(APPROVAL_TEXT) && s.includes(READY), 20_000);
      await submit(PROMPTS[1]);
      final = await waitFor((s) => s.includes(DONE_TEXT));
    }
    // One Ctrl-C at an idle composer ends Codex; repeat if it was busy.
    for (let n = 0; n < 3 && !screen().includes(EXITED); n++) {
      tmux('send-keys', '-t', 't', 'C-c');
      await waitFor((s) => s.includes(EXITED), 10_000);
    }
    closing = screen();
    // The whole history too: a line written and scrolled away since the last look.
    stray.look(tmux('capture-pane', '-p', '-t', 't', '-S', '-'));
  } finally {
    tmux('kill-server');
    await upstream.close();
  }

  const calls: UpstreamCall[] = upstream.requests.filter(isResponsesRequest).map((req) => {
    const file = `${String(req.index).padStart(3, '0')}.json`;
    writeFileSync(join(bodiesDir, file), req.body);
    const sessionId = req.headers['session-id'];
    return { file, turn: codexTurnMetaOf(req.headers), ...(typeof sessionId === 'string' ? { sessionId } : {}) };
  });
  const recall = model.recall();
  const observations: CodexTuiObservations = {
    isolated: isInNetns(),
    tmux: tmuxVersion() ?? '',
    stateDir,
    controlFile,
    ready,
    atApproval,
    final,
    approvals,
    closing,
    exited: closing.includes(EXITED),
    stray: stray.lines,
    calls,
    ...(recall === undefined ? {} : { recall }),
  };
  writeFileSync(join(root, 'observations.json'), JSON.stringify(observations, null, 2));
  if (existsSync(controlFile)) console.warn('the control command ran: its approval was not declined');
}

// Run only as a script; the test imports this file for its types and constants.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(fileURLToPath(import.meta.url))) await main();
