/**
 * The real-client scenario behind rescue-real-client.test.ts: drives Claude Code through
 * `ctxshed rescue` against a scripted upstream on 127.0.0.1, and writes what it saw to `--root`
 * (observations.json plus every request body, client side and upstream side) for the test to check.
 *
 *   node_modules/.bin/tsx test/real-client/rescue-scenario.ts --root /tmp/some-empty-dir
 *
 * Re-runs itself inside `unshare -n` (loopback only) when it can; otherwise the client's
 * HTTPS_PROXY points at the scripted upstream, which refuses CONNECT (CTXSHED_REAL_CLIENT_NO_UNSHARE=1
 * forces that). Path of each request:
 *
 *   claude ──► recording hop (client bytes) ──► ctxshed rescue ──► scripted upstream (bytes it forwarded)
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseStub } from '../../src/core/stub.js';
import { stubFilePath } from '../../src/demo/stub-in-request.js';
import { CLI_PATH } from '../support/cli-process.js';
import { errorReply } from '../../src/scripted/api-error.js';
import { toolUse, type ReplyBlock } from '../../src/scripted/message.js';
import { startMessagesApi } from '../../src/scripted/messages-api.js';
import { isCountTokensRequest, isMessagesRequest, parseRequestBody, type ReceivedRequest } from '../../src/scripted/received-request.js';
import type { MessageReply, ScriptedReply } from '../../src/scripted/reply.js';
import { CLAUDE_BIN, CLAUDE_CLIENTS, CLIENT, clientEnv, isInNetns, MODEL, reexecInNetns } from './client-env.js';
import { SEQ_HEADER, startRecordingHop, type RecordingHop } from './recording-hop.js';
import { linesOf } from './scratch-text.js';

const CLIENT_TIMEOUT_MS = 150_000;
/**
 * The rescue flags under test: a small window so an epoch latches in the second turn. Claude Code
 * 2.1.328's first request is about 49 KB (12 tools), 2.1.197's about 30 KB more, so its window is smaller.
 */
export const RESCUE_FLAGS = [
  '--window',
  CLIENT === CLAUDE_CLIENTS.older ? '50000' : '40000',
  '--rescue-pct',
  '70',
  '--keep-recent',
  '2',
  '--min-bytes',
  '1024',
];
/** Each test file's size: 12 KB of text is about 3,000 tokens at the scripted 4 bytes a token. */
const FILE_BYTES = 12 * 1024;
export const RECALL_TOOL_USE_ID = 'toolu_01RecallElidedBlock000000';
export const FAIL_PROMPT = 'EXIT-FAIL: this prompt gets a 400 from the scripted upstream';

export type RequestKind = 'main' | 'subagent' | 'side' | 'count_tokens' | 'other';

export interface Exchange {
  run: 'main' | 'resume';
  seq: number;
  method: string;
  path: string;
  kind: RequestKind;
  /** The client's `x-claude-code-session-id` header. */
  sessionId?: string;
  /** Files under `<root>/bodies`: what the client sent, and what the upstream got (absent if it never arrived). */
  clientFile: string;
  upstreamFile?: string;
}

export interface Observations {
  isolated: boolean;
  stateDir: string;
  projectDir: string;
  /** Exit codes of `ctxshed rescue -- claude ...` for the stream-json session and the resume. */
  mainExit: number | null;
  resumeExit: number | null;
  sessionId: string;
  exchanges: Exchange[];
  /** Upstream requests no hop forwarded: should be none. */
  strayUpstream: number;
  connectAttempts: number;
  /** Model calls the scripted API refused as over the window (its model's): ctxshed sent none. */
  overWindow: number;
  /** The stub the scripted model took a path from, and asked the client to Read. */
  recall?: { path: string; sha256: string; seenInSeq: number };
  /** `claude -p` exit codes, each without and with ctxshed in between. */
  exitCodes: Array<{ prompt: string; direct: number | null; rescued: number | null }>;
  mainStderr: string;
  resumeOutput: string;
}

// ---- the scratch project ------------------------------------------------------------------

export const FILE_NAMES = ['f1.txt', 'f2.txt', 'f3.txt', 'f4.txt', 'f5.txt', 'f6.txt'];

function writeProject(projectDir: string): void {
  mkdirSync(projectDir, { recursive: true });
  for (const name of FILE_NAMES) writeFileSync(join(projectDir, name), linesOf(name.replace('.txt', ''), FILE_BYTES));
}

// ---- the scripted model -----------------------------------------------------------------

const text = (t: string): ReplyBlock => ({ type: 'text', text: t });

function makeScript(projectDir: string): { main: Array<() => ReplyBlock[]>; subagent: Array<() => ReplyBlock[]>; mainTurns: number } {
  const read = (name: string): ReplyBlock => toolUse('Read', { file_path: join(projectDir, name) });
  const cat = (name: string): ReplyBlock => toolUse('Bash', { command: `cat ${name}`, description: `Print ${name}` });
  const main: Array<() => ReplyBlock[]> = [
    // turn 1
    () => [read('f1.txt')],
    () => [cat('f2.txt')],
    () => [read('f3.txt')],
    () => [text('Read f1, f2 and f3.')],
    // turn 2: the epoch latches here, and the recall step is slipped in when the first stub shows
    () => [cat('f4.txt')],
    () => [read('f5.txt')],
    () => [cat('f6.txt')],
    () => [text('Read f4, f5 and f6.')],
    // turn 3: a subagent reads files whose text the main thread has elided
    () => [
      toolUse('Agent', {
        description: 'Read f1 to f3',
        prompt: `Read f1.txt, f2.txt and f3.txt in ${projectDir} and say how many lines each has.`,
        subagent_type: 'general-purpose',
      }),
    ],
    () => [text('The subagent read them.')],
    // turn 4
    () => [toolUse('Bash', { command: 'wc -l f*.txt', description: 'Count lines' })],
    () => [text('Counted.')],
    // the resumed session (claude -p --resume)
    () => [toolUse('Bash', { command: 'echo resumed', description: 'Say resumed' })],
    () => [text('Resumed.')],
  ];
  const subagent: Array<() => ReplyBlock[]> = [
    () => [read('f1.txt')],
    () => [read('f2.txt')],
    () => [read('f3.txt')],
    () => [text('Each file has about 120 lines.')],
  ];
  return { main, subagent, mainTurns: 4 };
}

function hasTool(req: Pick<ReceivedRequest, 'body'>, name: string): boolean {
  const body = parseRequestBody(req) as { tools?: Array<{ name?: string }> } | undefined;
  return (body?.tools ?? []).some((t) => t.name === name);
}

export function classify(req: Pick<ReceivedRequest, 'method' | 'path' | 'headers' | 'body'>): RequestKind {
  if (isCountTokensRequest(req)) return 'count_tokens';
  if (!isMessagesRequest(req)) return 'other';
  if (!hasTool(req, 'Bash')) return 'side';
  return req.headers['x-claude-code-agent-id'] === undefined ? 'main' : 'subagent';
}

/** The first ctxshed stub among the body's tool results, if any. */
function firstStub(req: ReceivedRequest): { path: string; sha256: string } | undefined {
  const body = parseRequestBody(req) as { messages?: Array<{ content?: unknown }> } | undefined;
  for (const m of body?.messages ?? []) {
    if (!Array.isArray(m.content)) continue;
    for (const b of m.content as Array<Record<string, unknown>>) {
      const content = b['content'];
      if (b['type'] !== 'tool_result' || typeof content !== 'string') continue;
      const stub = parseStub(content);
      const path = stubFilePath(content);
      if (stub !== undefined && path !== undefined) return { path, sha256: stub.sha256 };
    }
  }
  return undefined;
}

interface Model {
  respond: (req: ReceivedRequest) => ScriptedReply | undefined;
  recall: Observations['recall'];
}

/** A scripted thread: its replies in order; the API prices each with its prompt-cache model. */
function makeThread(steps: Array<() => ReplyBlock[]>, next: (req: ReceivedRequest) => ReplyBlock[] | undefined): (req: ReceivedRequest) => MessageReply {
  let step = 0;
  return (req) => ({ kind: 'message', content: next(req) ?? (steps[step++] ?? (() => [text('Done.')]))() });
}

/** Each thread its own conversation for the prompt-cache model: main, each subagent, side calls. */
function conversationOf(req: ReceivedRequest): string {
  return `${classify(req)} ${String(req.headers['x-claude-code-agent-id'] ?? '')}`;
}

function makeModel(projectDir: string): Model & { mainTurns: number } {
  const script = makeScript(projectDir);
  const model: Model & { mainTurns: number } = { respond: () => undefined, recall: undefined, mainTurns: script.mainTurns };
  // The recall: the first time the main thread shows a stub, ask the client to Read the file it names.
  const main = makeThread(script.main, (req) => {
    if (model.recall !== undefined) return undefined;
    const stub = firstStub(req);
    if (stub === undefined) return undefined;
    model.recall = { ...stub, seenInSeq: Number(req.headers[SEQ_HEADER]) };
    return [text('Part of the context was moved out; reading it back.'), toolUse('Read', { file_path: stub.path }, RECALL_TOOL_USE_ID)];
  });
  const subagent = makeThread(script.subagent, () => undefined);
  model.respond = (req) => {
    switch (classify(req)) {
      case 'count_tokens':
      case 'other':
        return undefined;
      case 'side':
        return { kind: 'message', content: [text('{"title": "Read the scratch files"}')], outputTokens: 12 };
      case 'subagent':
        return subagent(req);
      case 'main':
        return main(req);
    }
  };
  return model;
}

// ---- running the client -----------------------------------------------------------------

interface Paths {
  root: string;
  home: string;
  projectDir: string;
  stateDir: string;
  bodiesDir: string;
}

/**
 * `ctxshed rescue ... -- sh -c ...`: the shell writes the proxy's URL (the child's
 * ANTHROPIC_BASE_URL) where the hop reads it, then runs the client against the hop.
 */
function rescueArgs(paths: Paths, upstreamUrl: string, targetFile: string, hopUrl: string, claudeArgs: string[]): string[] {
  const shell = 'printf %s "$ANTHROPIC_BASE_URL" > "$0"; ANTHROPIC_BASE_URL="$1"; export ANTHROPIC_BASE_URL; shift; exec "$@"';
  return [
    CLI_PATH,
    'rescue',
    ...RESCUE_FLAGS,
    '--state',
    paths.stateDir,
    '--upstream',
    upstreamUrl,
    '--',
    'sh',
    '-c',
    shell,
    targetFile,
    hopUrl,
    CLAUDE_BIN,
    ...claudeArgs,
  ];
}

function hopTarget(targetFile: string): () => string {
  let url: string | undefined;
  return () => (url ??= readFileSync(targetFile, 'utf8'));
}

async function runMainSession(
  paths: Paths,
  env: Record<string, string>,
  upstreamUrl: string,
  hop: RecordingHop,
  targetFile: string,
  mainTurns: number,
): Promise<{ code: number | null; sessionId: string; stderr: string }> {
  const claudeArgs = ['--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', '--dangerously-skip-permissions', '--model', MODEL];
  const child = spawn(process.execPath, rescueArgs(paths, upstreamUrl, targetFile, hop.url, claudeArgs), {
    cwd: paths.projectDir,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), CLIENT_TIMEOUT_MS);
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const exited = new Promise<number | null>((res) => child.on('close', (code) => res(code)));
  const send = (prompt: string): void => {
    child.stdin.write(`${JSON.stringify({ type: 'user', message: { role: 'user', content: prompt } })}\n`);
  };
  let turn = 0;
  let sessionId = '';
  send('Please read f1.txt, f2.txt and f3.txt.');
  for await (const line of createInterface({ input: child.stdout })) {
    let msg: { type?: string; session_id?: string };
    try {
      msg = JSON.parse(line) as typeof msg;
    } catch {
      continue;
    }
    if (typeof msg.session_id === 'string') sessionId = msg.session_id;
    if (msg.type === 'control_response') {
      send('Now read f4.txt, f5.txt and f6.txt.');
      continue;
    }
    if (msg.type !== 'result') continue;
    turn += 1;
    if (turn === 1) {
      // The interactive client's title side call; in stream-json mode it runs when asked.
      const request = { subtype: 'generate_session_title', description: 'Please read f1.txt, f2.txt and f3.txt.', persist: false };
      child.stdin.write(`${JSON.stringify({ type: 'control_request', request_id: 'title-1', request })}\n`);
    } else if (turn < mainTurns) send(turn === 2 ? 'Have a subagent read f1 to f3.' : 'Count the lines.');
    else child.stdin.end();
  }
  const code = await exited;
  clearTimeout(timer);
  return { code, sessionId, stderr };
}

function runToEnd(cmd: string, args: string[], cwd: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolveRun) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), CLIENT_TIMEOUT_MS);
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.on('error', (e) => (output += String(e)));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolveRun({ code, output });
    });
  });
}

/** `claude -p` with and without ctxshed, against an upstream that answers one prompt with a 400. */
async function runExitCodes(paths: Paths, isolated: boolean): Promise<Observations['exitCodes']> {
  const upstream = await startMessagesApi({
    conversationOf,
    respond: (req) => {
      if (!isMessagesRequest(req)) return undefined;
      if (classify(req) === 'main' && req.body.includes(Buffer.from(FAIL_PROMPT))) return errorReply(400, 'invalid_request_error', 'scripted failure');
      return { kind: 'message', content: [text('ok')], outputTokens: 1 };
    },
  });
  const env = clientEnv(upstream.url, paths.home, isolated);
  const results: Observations['exitCodes'] = [];
  try {
    for (const prompt of ['Say ok.', FAIL_PROMPT]) {
      const args = ['-p', prompt, '--dangerously-skip-permissions', '--model', MODEL, '--output-format', 'json'];
      const direct = await runToEnd(CLAUDE_BIN, args, paths.projectDir, env);
      const rescued = await runToEnd(
        process.execPath,
        [CLI_PATH, 'rescue', '--state', join(paths.root, 'state-exit'), '--', CLAUDE_BIN, ...args],
        paths.projectDir,
        env,
      );
      results.push({ prompt, direct: direct.code, rescued: rescued.code });
    }
  } finally {
    await upstream.close();
  }
  return results;
}

// ---- main -------------------------------------------------------------------------------

async function main(): Promise<void> {
  const i = process.argv.indexOf('--root');
  const rootArg = i === -1 ? undefined : process.argv[i + 1];
  if (rootArg === undefined) throw new Error('usage: rescue-scenario.ts --root <empty dir>');
  const relaunched = reexecInNetns();
  if (relaunched !== undefined) process.exit(await relaunched);
  const isolated = isInNetns();

  const root = resolve(rootArg);
  const paths: Paths = { root, home: join(root, 'home'), projectDir: join(root, 'project'), stateDir: join(root, 'state'), bodiesDir: join(root, 'bodies') };
  mkdirSync(paths.home, { recursive: true });
  mkdirSync(paths.bodiesDir, { recursive: true });
  writeProject(paths.projectDir);

  const model = makeModel(paths.projectDir);
  const upstream = await startMessagesApi({ conversationOf, respond: model.respond });
  const hops: Array<{ run: Exchange['run']; hop: RecordingHop }> = [];
  let main: Awaited<ReturnType<typeof runMainSession>>;
  let resume: { code: number | null; output: string };
  try {
    const mainTarget = join(root, 'main-proxy-url');
    const mainHop = await startRecordingHop(hopTarget(mainTarget), 0);
    hops.push({ run: 'main', hop: mainHop });
    main = await runMainSession(paths, clientEnv(upstream.url, paths.home, isolated), upstream.url, mainHop, mainTarget, model.mainTurns);
    await mainHop.close();

    // ctxshed stopped with the session; a new one on the same state directory serves the resume.
    const resumeTarget = join(root, 'resume-proxy-url');
    const resumeHop = await startRecordingHop(hopTarget(resumeTarget), 1000);
    hops.push({ run: 'resume', hop: resumeHop });
    const claudeArgs = ['-p', 'Carry on.', '--resume', main.sessionId, '--dangerously-skip-permissions', '--model', MODEL, '--output-format', 'json'];
    resume = await runToEnd(
      process.execPath,
      rescueArgs(paths, upstream.url, resumeTarget, resumeHop.url, claudeArgs),
      paths.projectDir,
      clientEnv(upstream.url, paths.home, isolated),
    );
    await resumeHop.close();
  } finally {
    await upstream.close();
  }
  const exitCodes = await runExitCodes(paths, isolated);

  const bySeq = new Map<number, ReceivedRequest>();
  let strayUpstream = 0;
  for (const req of upstream.requests) {
    const seq = req.headers[SEQ_HEADER];
    if (typeof seq === 'string') bySeq.set(Number(seq), req);
    else if (req.method !== 'CONNECT') strayUpstream += 1;
  }
  const exchanges: Exchange[] = [];
  for (const { run, hop } of hops) {
    for (const req of hop.requests) {
      const clientFile = `${req.index}-client.json`;
      writeFileSync(join(paths.bodiesDir, clientFile), req.body);
      const got = bySeq.get(req.index);
      const exchange: Exchange = { run, seq: req.index, method: req.method, path: req.path, kind: classify(req), clientFile };
      const session = req.headers['x-claude-code-session-id'];
      if (typeof session === 'string') exchange.sessionId = session;
      if (got !== undefined) {
        exchange.upstreamFile = `${req.index}-upstream.json`;
        writeFileSync(join(paths.bodiesDir, exchange.upstreamFile), got.body);
      }
      exchanges.push(exchange);
    }
  }
  const observations: Observations = {
    isolated,
    stateDir: paths.stateDir,
    projectDir: paths.projectDir,
    mainExit: main.code,
    resumeExit: resume.code,
    sessionId: main.sessionId,
    exchanges,
    strayUpstream,
    connectAttempts: upstream.requests.filter((r) => r.method === 'CONNECT').length,
    overWindow: upstream.refusedForSize(),
    ...(model.recall === undefined ? {} : { recall: model.recall }),
    exitCodes,
    mainStderr: main.stderr.slice(-4000),
    resumeOutput: resume.output.slice(-4000),
  };
  writeFileSync(join(root, 'observations.json'), JSON.stringify(observations, null, 2));
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) await main();
