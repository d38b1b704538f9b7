/**
 * The real-client scenario behind rescue-codex.test.ts: drives the real Codex CLI through
 * `ctxshed rescue` against the scripted OpenAI upstream on 127.0.0.1, offline, in a long session
 * of three `codex exec` runs (the second and third `exec resume` the thread, each a new ctxshed
 * process over the same state directory), and writes what it saw to `--root` (observations.json
 * and every request body, client side and upstream side).
 *
 *   node_modules/.bin/tsx test/real-client/rescue-codex-scenario.ts --root /tmp/some-empty-dir
 *
 * Runs only inside `unshare -n` (loopback only); it re-runs itself there, and exits 3 when it
 * cannot. Path of each request:
 *
 *   codex ──► upgrade hop (client bytes) ──► ctxshed rescue ──► scripted upstream (bytes it forwarded)
 *
 * `rescue` gives Codex `-c openai_base_url="<proxy>"`; the `codex` it runs is a wrapper that hands
 * that URL to the hop and points the real Codex at the hop instead.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseStub } from '../../src/core/stub.js';
import { STUB_PREFIX } from '../../src/core/stub-paths.js';
import type { ReceivedRequest } from '../../src/scripted/received-request.js';
import {
  customToolCall,
  functionCall,
  isResponsesRequest,
  messageItem,
  responsesUsage,
  startOpenAiUpstream,
  type OpenAiReply,
} from '../support/responses-upstream.js';
import { isInNetns, reexecInNetns } from './client-env.js';
import { CODEX_MODEL, permissionsInstructionsOf } from './codex-env.js';
import { SEQ_HEADER } from './recording-hop.js';
import { CANNOT_ISOLATE, type CodexRuns, type Exchange, pairExchanges, runCodexPrompts, scenarioDirs } from './codex-runs.js';
import { linesOf } from './scratch-text.js';

const _CLIENT_TIMEOUT_MS = 180_000;
const BYTES_PER_TOKEN = 4;
/** A window Codex's 68 KB opening body fills to about a quarter, so the files read push it over 70%. */
export const RESCUE_FLAGS = ['--window', '60000', '--rescue-pct', '70', '--keep-recent', '2', '--min-bytes', '1024'];
const FILE_BYTES = 12 * 1024;
export const FILE_NAMES = Array.from({ length: 10 }, (_, i) => `f${i + 1}.txt`);
export const RECALL_CALL_ID = 'call_recall_elided_block';
/** The control: a write into the project, which Codex's default read-only sandbox must refuse. */
export const CONTROL_CALL_ID = 'call_sandbox_control';
/** The file the control tries to create. */
export const CONTROL_FILE = 'sandbox-control.txt';
export const PROMPTS = ['Read the first half of the notes.', 'Read the second half of the notes.', 'Now count the lines of every file.'] as const;

export interface Observations {
  readonly stateDir: string;
  readonly projectDir: string;
  readonly exits: Array<{ code: number | null; stderr: string }>;
  readonly threadId: string;
  readonly exchanges: Exchange[];
  readonly upgrades: Array<{ path: string; reply: string; warmups: number }>;
  /** The `<permissions instructions>` of the first model call: sandbox mode and approval policy in Codex's words. */
  readonly permissions?: string;
  /** Upstream requests that no hop forwarded: should be none. */
  readonly strayUpstream: number;
  /** The stub the scripted model took a path from, and asked Codex to `cat`. */
  readonly recall?: { path: string; sha256: string; seenInSeq: number };
}

// ---- the scripted model -----------------------------------------------------------------

interface Item {
  readonly type?: string;
  readonly role?: string;
  readonly content?: unknown;
  readonly call_id?: string;
}

type Step = () => object[];

const cat = (name: string): object => functionCall('exec_command', { cmd: `cat ${name}` });
/** Code mode: the `exec` custom tool runs JavaScript that calls the shell. */
const catJs = (name: string): object => customToolCall('exec', `const r = await tools.exec_command({cmd: ${JSON.stringify(`cat ${name}`)}});\ntext(r);\n`);

/** One list of steps per prompt; each step answers once all earlier steps' calls have outputs. */
const TURNS: readonly (readonly Step[])[] = [
  [
    () => [cat('f1.txt')],
    () => [catJs('f2.txt')],
    () => [cat('f3.txt')],
    () => [cat('f4.txt')],
    () => [catJs('f5.txt')],
    () => [messageItem('Read f1 to f5.')],
  ],
  [
    () => [cat('f6.txt')],
    () => [cat('f7.txt')],
    () => [catJs('f8.txt')],
    () => [cat('f9.txt')],
    () => [cat('f10.txt')],
    () => [messageItem('Read f6 to f10.')],
  ],
  [
    () => [functionCall('exec_command', { cmd: 'wc -l f*.txt' })],
    () => [functionCall('exec_command', { cmd: `touch ${CONTROL_FILE}` }, CONTROL_CALL_ID)],
    () => [messageItem('Counted.')],
  ],
];

function positionOf(input: readonly Item[]): { turn: number; outputs: number } {
  let turn = -1;
  let from = 0;
  input.forEach((item, i) => {
    const text = JSON.stringify(item.content ?? '');
    const at = PROMPTS.findIndex((p) => item.role === 'user' && text.includes(p));
    if (at >= 0) {
      turn = at;
      from = i;
    }
  });
  const outputs = input
    .slice(from)
    .filter((i) => (i.type === 'function_call_output' || i.type === 'custom_tool_call_output') && i.call_id !== RECALL_CALL_ID).length;
  return { turn, outputs };
}

/** The first stub in a body the upstream got: its elided file and sha256. */
export function firstStub(body: Buffer): { path: string; sha256: string } | undefined {
  const text = body.toString('utf8');
  const at = text.indexOf(JSON.stringify(STUB_PREFIX).slice(1, -1));
  if (at === -1) return undefined;
  // The stub's JSON string runs to the first unescaped quote: a stub names its call's command,
  // whose own quotes are escaped (`exec_command \"cat f1.txt\"`).
  const escaped = /^(?:[^"\\]|\\.)*/.exec(text.slice(at))?.[0] ?? '';
  const stubText = JSON.parse(`"${escaped}"`) as string;
  const stub = parseStub(stubText);
  // The stub names its file however its label words it ("read <path>", "the full text is in <path>").
  const path = /(\/[^\s;\]]+\.txt)/.exec(stubText)?.[1];
  return stub === undefined || path === undefined ? undefined : { path, sha256: stub.sha256 };
}

function makeModel(): { respond: (req: ReceivedRequest) => OpenAiReply | undefined; recall: () => Observations['recall'] } {
  let recall: Observations['recall'];
  let previous = 0;
  const respond = (req: ReceivedRequest): OpenAiReply | undefined => {
    if (!isResponsesRequest(req)) return undefined;
    const input = Math.ceil(req.body.length / BYTES_PER_TOKEN);
    const usage = responsesUsage(input, Math.min(previous, input));
    previous = input;
    // The first time a stub shows, the model reads its file back through Codex's shell tool.
    if (recall === undefined) {
      const stub = firstStub(req.body);
      if (stub !== undefined) {
        recall = { ...stub, seenInSeq: Number(req.headers[SEQ_HEADER]) };
        return { kind: 'response', output: [functionCall('exec_command', { cmd: `cat ${stub.path}` }, RECALL_CALL_ID)], usage };
      }
    }
    const body = JSON.parse(req.body.toString('utf8')) as { input?: Item[] };
    const { turn, outputs } = positionOf(body.input ?? []);
    const steps = TURNS[turn] ?? [];
    let calls = 0;
    for (const step of steps) {
      const items = step();
      if (calls === outputs) return { kind: 'response', output: items, usage };
      calls += items.filter((i) => ['function_call', 'custom_tool_call'].includes((i as Item).type ?? '')).length;
    }
    return { kind: 'response', output: [messageItem('Done.')], usage };
  };
  return { respond, recall: () => recall };
}

// ---- main -------------------------------------------------------------------------------

async function main(): Promise<void> {
  const i = process.argv.indexOf('--root');
  const rootArg = i === -1 ? undefined : process.argv[i + 1];
  if (rootArg === undefined) throw new Error('usage: rescue-codex-scenario.ts --root <empty dir>');
  const relaunched = reexecInNetns();
  if (relaunched !== undefined) process.exit(await relaunched);
  // Codex talks to more than its base URL (model discovery, sign-in): never run it with a network.
  if (!isInNetns()) process.exit(CANNOT_ISOLATE);

  const dirs = scenarioDirs(resolve(rootArg));
  const { root, projectDir, stateDir, bodiesDir } = dirs;
  for (const name of FILE_NAMES) writeFileSync(join(projectDir, name), linesOf(name.replace('.txt', ''), FILE_BYTES));

  const model = makeModel();
  const upstream = await startOpenAiUpstream(model.respond);
  // Codex's default mode, as a user runs it: no --sandbox, no approval setting, no bypass. For
  // `codex exec` 0.169.0 that is the read-only sandbox (bubblewrap, then seccomp) with approvals
  // never asked; it reads anywhere, so `cat <state>/elided/<sha>.txt` needs no grant.
  const execFlags = ['--skip-git-repo-check', '--json', '-m', CODEX_MODEL, '-C', projectDir];
  let runs: CodexRuns;
  try {
    runs = await runCodexPrompts({ dirs, upstreamUrl: upstream.baseUrl, rescueFlags: RESCUE_FLAGS, execFlags, prompts: PROMPTS });
  } finally {
    await upstream.close();
  }
  const { exits, threadId, upgrades } = runs;
  const { exchanges, strayUpstream } = pairExchanges(runs, upstream.requests, bodiesDir);
  const recall = model.recall();
  const firstCall = runs.hopRequests.find((r) => r.method === 'POST' && r.path.endsWith('/responses'));
  const permissions = firstCall === undefined ? undefined : permissionsInstructionsOf(firstCall.body);
  const observations: Observations = {
    stateDir,
    projectDir,
    exits,
    threadId,
    exchanges,
    upgrades,
    strayUpstream,
    ...(recall === undefined ? {} : { recall }),
    ...(permissions === undefined ? {} : { permissions }),
  };
  writeFileSync(join(root, 'observations.json'), JSON.stringify(observations, null, 2));
}

// Run only as a script; the test imports this file for its types and constants.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) await main();
