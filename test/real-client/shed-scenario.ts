/**
 * The real-client scenario behind shed-real-client.test.ts: Claude Code in print mode (`-p`, one
 * process, six user turns over stream-json) and its DEFAULT permission mode, through
 * `ctxshed rescue --mode shed`, against the scripted upstream on 127.0.0.1. Writes what it saw to
 * `--root` (observations.json and every body, client side and upstream side).
 *
 *   node_modules/.bin/tsx test/real-client/shed-scenario.ts --root /tmp/some-empty-dir
 *
 * The command `rescue` runs is `<root>/bin/claude`: a shell script that sends the client through a
 * recording hop and execs the real client with the arguments `rescue` gave it. Being named
 * `claude`, it gets the grant exactly as a user's `claude` does, and the hop shows the bytes the
 * client sent, so inflate can be checked against them byte for byte:
 *
 *   claude ──► recording hop (client bytes) ──► ctxshed rescue --mode shed ──► scripted upstream
 *
 * The turns (the model's steps in brackets, each after a thinking block the scripted API signs, as
 * the client asks for thinking on its default model; each Read is of a 16 KB file of the project,
 * f<n>.txt holding one planted fact, factOf(n), halfway through):
 *   1  "Read the scratch files when asked."    [ToolSearch loads restore] "Ready."
 *   2  "[ctxshed:goal] ..."                    [Read f1] [Read f2] text
 *   3..5                                       two Reads each (f3 .. f8): epoch 1 latches on the way
 *   6  "Read f9 and f10, then restore ..."     [Read f9] [Read f10]: epoch 2 latches;
 *                                              [restore <first span's handle> + Read <its .md path>,
 *                                               both taken from the stub's text] "Done."
 *   7  "Bring back every shed span ..."        the sweep: each span its first request shows, restored
 *                                              once, page by page at the offset each header gives
 *   8  "Read g1.txt to g6.txt."                six fresh files (no facts), so a later epoch sheds
 *                                              the client's mid-session `role: "system"` notice
 * The epochs are the recent window's (policy version 3, by token budget): the suite prints them.
 *
 * Then a second run, `pages`: a span of about 110 KB planted in a state directory of its own, and
 * `claude -p` whose model restores it page by page, each time at the offset the last header gave.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseSpanStub } from '../../src/core/shed/span-stub.js';
import { textBlock, toolUse, type ReplyBlock } from '../../src/scripted/message.js';
import { startMessagesApi } from '../../src/scripted/messages-api.js';
import { parseRequestBody, type ReceivedRequest } from '../../src/scripted/received-request.js';
import type { ScriptedReply } from '../../src/scripted/reply.js';
import { CLI_PATH } from '../support/cli-process.js';
import { CLAUDE_BIN, CLAUDE_CLIENTS, clientEnv, isInNetns, reexecInNetns } from './client-env.js';
import { SEQ_HEADER, startRecordingHop } from './recording-hop.js';
import { classify, type RequestKind } from './rescue-scenario.js';
import { toolResultsOf } from './request-bytes.js';
import { linesOf } from './scratch-text.js';

const CLIENT_TIMEOUT_MS = 100_000;
/** Each file's size: about 4,500 scripted tokens once Read numbers its lines. */
const FILE_BYTES = 16 * 1024;
export const FILE_COUNT = 10;
/** The shed flags under test: the window, the threshold, and a horizon long enough for the gate. */
export const SHED_FLAGS = ['--mode', 'shed', '--window', '70000', '--rescue-pct', '50', '--horizon', '100'];
/** The session's model: the client's default (shed keeps preserved thinking valid, docs/shed.md). */
export const SHED_MODEL = CLAUDE_CLIENTS.current.model;
export const GOAL = '[ctxshed:goal] Keep a running total of the lines of every scratch file, f1.txt to f10.txt, and report it at the end.';
export const RESTORE_ID = 'toolu_01RestoreFirstSpan0000';
export const READ_MD_ID = 'toolu_01ReadFirstSpanMd00000';
/** The id of the Read of page `i` of the first span's `.md` (page 0 is READ_MD_ID). */
export function readMdId(i: number): string {
  return i === 0 ? READ_MD_ID : `toolu_01ReadFirstSpanMd${String(i).padStart(5, '0')}`;
}
export const LOAD_ID = 'toolu_01LoadRestore00000000';
/**
 * The message answering the ToolSearch call that loads restore, in a request that carries it:
 * shed keeps it and everything before it. Message 2 when the prompt is alone in the head; 3 when
 * a `role: "system"` message follows it (Claude Code 2.1.328 on claude-opus-5-5).
 */
export function loadedThrough(body: Buffer): number {
  const parsed = JSON.parse(body.toString('utf8')) as { messages: Array<{ content: unknown }> };
  const at = parsed.messages.findIndex(
    (m) => Array.isArray(m.content) && (m.content as Array<Record<string, unknown>>).some((b) => b['type'] === 'tool_result' && b['tool_use_id'] === LOAD_ID),
  );
  if (at === -1) throw new Error(`no answer to ${LOAD_ID} in this request`);
  return at;
}
export const PROMPTS = [
  'Read the scratch files when asked.',
  GOAL,
  'Read f3.txt and f4.txt.',
  'Read f5.txt and f6.txt.',
  'Read f7.txt and f8.txt.',
  'Read f9.txt and f10.txt, then bring back the first shed span and check it.',
  'Bring back every shed span once, page by page, and check the facts in it.',
  'Read g1.txt to g6.txt.',
];

/** A distinct fact planted in the middle of file `n`: what a restore must give back once its Read was shed. */
export function factOf(n: number): string {
  return `FACT-f${n}: the courier code is ${createHash('sha256').update(`fact ${n}`).digest('hex').slice(0, 12)}.`;
}

/** File `n`'s text: scratch lines with its fact halfway through. */
function fileText(n: number): string {
  const lines = linesOf(`f${n}`, FILE_BYTES).split('\n');
  lines.splice(lines.length >> 1, 0, factOf(n));
  return lines.join('\n');
}

/** The last turn's sweep: every span the turn's first request shows, restored once, all pages, one call a step. */
export interface Sweep {
  seenInSeq: number;
  handles: string[];
  calls: Array<{ id: string; handle: string; offset: number }>;
  done?: boolean;
}

export interface Exchange {
  seq: number;
  kind: RequestKind;
  /** Files under `<root>/bodies`: what the client sent, and what the upstream got (absent if it never arrived). */
  clientFile: string;
  upstreamFile?: string;
}

/** The `pages` run: the planted span, and the ids of the restore calls in order. */
export interface PagesRun {
  exit: number | null;
  stderr: string;
  stateDir: string;
  sha256: string;
  pageIds: string[];
  /** The last main-thread request the client sent, under `<root>/bodies`. */
  lastFile: string;
  /** Model calls the scripted API refused as over the window. */
  overWindow: number;
}

export interface ShedObservations {
  isolated: boolean;
  stateDir: string;
  argv: string[];
  exit: number | null;
  stderr: string;
  results: unknown[];
  exchanges: Exchange[];
  /** The first span's handle and `.md` path as the model read them from its stub, and the request it was in. */
  /** The first span brought back: its handle, the request that showed it, its `.md` and the Read pages its stub names (`[offset, limit]`; none: one Read). */
  restore?: { handle: string; seenInSeq: number; mdPath?: string; pages?: Array<readonly [number, number]> };
  sweep?: Sweep;
  strayUpstream: number;
  connectAttempts: number;
  /** Model calls the scripted API refused as over the window (its model's), the pages run's included: ctxshed sent none. */
  overWindow: number;
  pages: PagesRun;
}

/** Every span stub among the request's user messages, in order. */
export function spanStubsIn(req: Pick<ReceivedRequest, 'body'>): Array<{ sha256: string; text: string }> {
  const body = parseRequestBody(req as ReceivedRequest) as { messages?: Array<{ role?: string; content?: unknown }> } | undefined;
  const found: Array<{ sha256: string; text: string }> = [];
  for (const m of body?.messages ?? []) {
    if (m.role !== 'user' || typeof m.content !== 'string') continue;
    const stub = parseSpanStub(m.content);
    if (stub !== undefined) found.push({ sha256: stub.sha256, text: m.content });
  }
  return found;
}

/** The main thread's replies, in order; the restore step takes its handle from the first stub it is shown. */
function makeModel(
  projectDir: string,
  observed: { restore?: ShedObservations['restore']; sweep?: Sweep },
): (req: ReceivedRequest) => ScriptedReply | undefined {
  const read = (n: number): ReplyBlock => toolUse('Read', { file_path: join(projectDir, `f${n}.txt`) }, `toolu_01ReadF${String(n).padStart(2, '0')}000000000`);
  const pair = (a: number, b: number): Array<(req: ReceivedRequest) => ReplyBlock[]> => [
    () => [read(a)],
    () => [read(b)],
    () => [textBlock(`Read f${a}.txt and f${b}.txt.`)],
  ];
  const steps: Array<(req: ReceivedRequest) => ReplyBlock[]> = [
    () => [toolUse('ToolSearch', { query: 'select:mcp__ctxshed__restore', max_results: 5 }, LOAD_ID)],
    () => [textBlock('Ready.')],
    ...pair(1, 2),
    ...pair(3, 4),
    ...pair(5, 6),
    ...pair(7, 8),
    () => [read(9)],
    () => [read(10)],
    // The ToolSearch answer that loaded restore (messages 1 and 2) is never shed: call it directly.
    (req) => {
      const [first] = spanStubsIn(req);
      if (first === undefined) return [textBlock('No span was shed.')];
      const head = first.text.split('\n', 1)[0] ?? '';
      const md = /or read (\/\S+\.md)[ ,]/.exec(head)?.[1];
      // The pages the stub names for Read (issue 39), each Read whole: the first is READ_MD_ID.
      const pages = [...head.matchAll(/offset (\d+) limit (\d+)/g)].map((m) => [Number(m[1]), Number(m[2])] as const);
      observed.restore = { handle: first.sha256, seenInSeq: Number(req.headers[SEQ_HEADER]), ...(md === undefined ? {} : { mdPath: md, pages }) };
      const reads =
        md === undefined
          ? []
          : pages.length === 0
            ? [toolUse('Read', { file_path: md }, READ_MD_ID)]
            : pages.map(([offset, limit], i) => toolUse('Read', { file_path: md, offset, limit }, readMdId(i)));
      return [
        textBlock('Part of the conversation was shed; bringing it back both ways the stub names.'),
        toolUse('mcp__ctxshed__restore', { handle: first.sha256 }, RESTORE_ID),
        ...reads,
      ];
    },
    () => [textBlock('Done.')],
  ];
  const sweep = (req: ReceivedRequest): ReplyBlock[] => {
    observed.sweep ??= { seenInSeq: Number(req.headers[SEQ_HEADER]), handles: spanStubsIn(req).map((f) => f.sha256), calls: [] };
    const { handles, calls } = observed.sweep;
    const last = calls.at(-1);
    const more = last === undefined ? undefined : /call restore again with offset (\d+)/.exec(toolResultsOf(req.body).get(last.id)?.text ?? '')?.[1];
    const at = last === undefined ? 0 : more === undefined ? handles.indexOf(last.handle) + 1 : handles.indexOf(last.handle);
    const handle = handles[at];
    if (handle === undefined || calls.length >= 4 * handles.length) {
      observed.sweep.done = true;
      return [textBlock('Every span was read back.')];
    }
    const call = { id: `toolu_01Sweep${String(calls.length).padStart(2, '0')}00000000000`, handle, offset: more === undefined ? 0 : Number(more) };
    calls.push(call);
    return [toolUse('mcp__ctxshed__restore', { handle, ...(call.offset === 0 ? {} : { offset: call.offset }) }, call.id)];
  };
  // The last turn reads again after the sweep, so a later epoch sheds the client's notices sent during it.
  const again = [1, 2, 3, 4, 5, 6].map((n) => () => [toolUse('Read', { file_path: join(projectDir, `g${n}.txt`) }, `toolu_01ReadG${n}0000000000000`)]);
  let step = 0;
  let after = 0;
  const next = (req: ReceivedRequest): ReplyBlock[] =>
    (steps[step++] ?? (observed.sweep?.done !== true ? sweep : (again[after++] ?? (() => [textBlock('Read them again.')]))))(req);
  return (req) => {
    switch (classify(req)) {
      case 'count_tokens':
      case 'other':
        return undefined;
      case 'side':
      case 'subagent':
        return { kind: 'message', content: [textBlock('{"title": "Scratch files"}')], outputTokens: 9 };
      case 'main': {
        // The client asks for extended thinking, so every turn starts with a signed thinking block,
        // which the client must send back verbatim and shed must keep in the turns it keeps.
        const n = step;
        const thinking: ReplyBlock = {
          type: 'thinking',
          thinking: `Step ${n}: what the person asked for next.`,
          signature: `c2lnbmF0dXJl${String(n).padStart(4, '0')}`,
        };
        return { kind: 'message', content: [thinking, ...next(req)] };
      }
    }
  };
}

/** Messages of about `bytes` bytes, as a span's exact bytes (the messages, comma-separated). */
function plantedSpan(bytes: number): Buffer {
  const messages: string[] = [];
  for (let i = 0, size = 0; size < bytes; i += 1) {
    const text = `Turn ${i}: ${'the quick brown fox jumps over the lazy dog. '.repeat(40)}`;
    const message = JSON.stringify(i % 2 === 0 ? { role: 'assistant', content: [{ type: 'text', text }] } : { role: 'user', content: text });
    messages.push(message);
    size += message.length + 1;
  }
  return Buffer.from(messages.join(','), 'utf8');
}

/** `claude -p` restoring a planted span of about 110 KB page by page. */
async function runPages(root: string, env: Record<string, string>, projectDir: string): Promise<PagesRun> {
  const stateDir = join(root, 'state-pages');
  mkdirSync(join(stateDir, 'spans'), { recursive: true, mode: 0o700 });
  const span = plantedSpan(110 * 1024);
  const sha256 = createHash('sha256').update(span).digest('hex');
  writeFileSync(join(stateDir, 'spans', `${sha256}.json`), span, { mode: 0o600 });
  const pageIds: string[] = [];
  let step = 0;
  const upstream = await startMessagesApi({
    respond: (req) => {
      const kind = classify(req);
      if (kind === 'count_tokens' || kind === 'other') return undefined;
      if (kind !== 'main') return { kind: 'message', content: [textBlock('{"title": "Pages"}')], outputTokens: 9 };
      step += 1;
      if (step === 1) return { kind: 'message', content: [toolUse('ToolSearch', { query: 'select:mcp__ctxshed__restore', max_results: 5 }, LOAD_ID)] };
      // The offset the newest header asked for; none on the first call, none after the last page.
      const asked = [...req.body.toString('utf8').matchAll(/call restore again with offset (\d+)/g)].map((m) => Number(m[1]));
      const offset = pageIds.length === 0 ? 0 : asked.length === pageIds.length ? asked.at(-1) : undefined;
      if (offset === undefined || pageIds.length >= 6) return { kind: 'message', content: [textBlock('Done.')] };
      const id = `toolu_01RestorePage${pageIds.length}0000000`;
      pageIds.push(id);
      return { kind: 'message', content: [toolUse('mcp__ctxshed__restore', { handle: sha256, ...(offset === 0 ? {} : { offset }) }, id)] };
    },
  });
  try {
    const argv = [
      CLI_PATH,
      'rescue',
      '--state',
      stateDir,
      '--upstream',
      upstream.url,
      '--',
      CLAUDE_BIN,
      '-p',
      `Restore the span ${sha256}.`,
      '--model',
      SHED_MODEL,
      '--output-format',
      'json',
    ];
    const run = await new Promise<{ code: number | null; stderr: string }>((done) => {
      const child = spawn(process.execPath, argv, { cwd: projectDir, env, stdio: ['ignore', 'ignore', 'pipe'] });
      const timer = setTimeout(() => child.kill('SIGKILL'), CLIENT_TIMEOUT_MS);
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
      child.on('close', (code) => {
        clearTimeout(timer);
        done({ code, stderr });
      });
    });
    const last = upstream.requests.filter((r) => classify(r) === 'main').at(-1);
    const lastFile = 'pages-last.json';
    writeFileSync(join(root, 'bodies', lastFile), last?.body ?? Buffer.alloc(0));
    return { exit: run.code, stderr: run.stderr.slice(-4000), stateDir, sha256, pageIds, lastFile, overWindow: upstream.refusedForSize() };
  } finally {
    await upstream.close();
  }
}

/** `<root>/bin/claude`: writes the proxy's URL where the hop reads it, then runs the real client through the hop. */
export function writeClaudeShim(binDir: string, targetFile: string, hopUrl: string): string {
  mkdirSync(binDir, { recursive: true });
  const shim = join(binDir, 'claude');
  const q = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
  writeFileSync(
    shim,
    `#!/bin/sh\nprintf %s "$ANTHROPIC_BASE_URL" > ${q(targetFile)}\nANTHROPIC_BASE_URL=${q(hopUrl)}\nexport ANTHROPIC_BASE_URL\nexec ${q(CLAUDE_BIN)} "$@"\n`,
  );
  chmodSync(shim, 0o755);
  return shim;
}

/** One client process, six user turns: each prompt is sent when the previous turn's result arrives. */
async function runSession(argv: string[], cwd: string, env: Record<string, string>): Promise<{ code: number | null; stderr: string; results: unknown[] }> {
  const child = spawn(process.execPath, argv, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  const timer = setTimeout(() => child.kill('SIGKILL'), CLIENT_TIMEOUT_MS);
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const exited = new Promise<number | null>((res) => child.on('close', (code) => res(code)));
  const send = (prompt: string): void => void child.stdin.write(`${JSON.stringify({ type: 'user', message: { role: 'user', content: prompt } })}\n`);
  const results: unknown[] = [];
  send(PROMPTS[0]!);
  for await (const line of createInterface({ input: child.stdout })) {
    let msg: { type?: string };
    try {
      msg = JSON.parse(line) as typeof msg;
    } catch {
      continue;
    }
    if (msg.type !== 'result') continue;
    results.push(msg);
    const next = PROMPTS[results.length];
    if (next === undefined) child.stdin.end();
    else send(next);
  }
  const code = await exited;
  clearTimeout(timer);
  return { code, stderr, results };
}

async function main(): Promise<void> {
  const i = process.argv.indexOf('--root');
  const rootArg = i === -1 ? undefined : process.argv[i + 1];
  if (rootArg === undefined) throw new Error('usage: shed-scenario.ts --root <empty dir>');
  const relaunched = reexecInNetns();
  if (relaunched !== undefined) process.exit(await relaunched);
  const root = resolve(rootArg);
  const home = join(root, 'home');
  const projectDir = join(root, 'project');
  const stateDir = join(root, 'state');
  const bodiesDir = join(root, 'bodies');
  for (const dir of [home, projectDir, bodiesDir]) mkdirSync(dir, { recursive: true });
  for (let n = 1; n <= FILE_COUNT; n += 1) writeFileSync(join(projectDir, `f${n}.txt`), fileText(n));
  for (let n = 1; n <= 6; n += 1) writeFileSync(join(projectDir, `g${n}.txt`), linesOf(`g${n}`, FILE_BYTES));

  const observed: { restore?: ShedObservations['restore']; sweep?: Sweep } = {};
  const upstream = await startMessagesApi({
    conversationOf: (req) => `${classify(req)} ${String(req.headers['x-claude-code-agent-id'] ?? '')}`,
    respond: makeModel(projectDir, observed),
  });
  const targetFile = join(root, 'proxy-url');
  let proxyUrl: string | undefined;
  const hop = await startRecordingHop(() => (proxyUrl ??= readFileSync(targetFile, 'utf8')), 0);
  const isolated = isInNetns();
  // A person's environment: no IS_SANDBOX, no permission flag of any kind.
  const env = clientEnv(upstream.url, home, isolated);
  delete env['IS_SANDBOX'];
  const shim = writeClaudeShim(join(root, 'bin'), targetFile, hop.url);
  const claudeArgs = ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', '--model', SHED_MODEL];
  const argv = [CLI_PATH, 'rescue', ...SHED_FLAGS, '--state', stateDir, '--upstream', upstream.url, '--', shim, ...claudeArgs];
  let session: Awaited<ReturnType<typeof runSession>>;
  try {
    session = await runSession(argv, projectDir, env);
  } finally {
    await hop.close();
    await upstream.close();
  }

  const { exchanges, strayUpstream } = saveExchanges(hop.requests, upstream.requests, bodiesDir);
  const pages = await runPages(root, env, projectDir);
  const observations: ShedObservations = {
    isolated,
    stateDir,
    argv,
    exit: session.code,
    stderr: session.stderr.slice(-4000),
    results: session.results,
    exchanges,
    ...(observed.restore === undefined ? {} : { restore: observed.restore }),
    ...(observed.sweep === undefined ? {} : { sweep: observed.sweep }),
    strayUpstream,
    connectAttempts: upstream.requests.filter((r) => r.method === 'CONNECT').length,
    overWindow: upstream.refusedForSize() + pages.overWindow,
    pages,
  };
  writeFileSync(join(root, 'observations.json'), JSON.stringify(observations, null, 2));
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(fileURLToPath(import.meta.url))) await main();

/**
 * Saves each request the recording hop saw as the client sent it and, matched by its sequence
 * header, as the upstream got it, under `bodiesDir`. Requests that reached the upstream without the
 * header (not through the hop) are counted as stray; CONNECT attempts are not.
 */
export function saveExchanges(
  hopRequests: ReadonlyArray<ReceivedRequest & { readonly index: number }>,
  upstreamRequests: readonly ReceivedRequest[],
  bodiesDir: string,
): { exchanges: Exchange[]; strayUpstream: number } {
  const bySeq = new Map<number, ReceivedRequest>();
  let strayUpstream = 0;
  for (const req of upstreamRequests) {
    const seq = req.headers[SEQ_HEADER];
    if (typeof seq === 'string') bySeq.set(Number(seq), req);
    else if (req.method !== 'CONNECT') strayUpstream += 1;
  }
  const exchanges = hopRequests.map((req) => {
    const clientFile = `${req.index}-client.json`;
    writeFileSync(join(bodiesDir, clientFile), req.body);
    const got = bySeq.get(req.index);
    const exchange: Exchange = { seq: req.index, kind: classify(req), clientFile };
    if (got !== undefined) {
      exchange.upstreamFile = `${req.index}-upstream.json`;
      writeFileSync(join(bodiesDir, exchange.upstreamFile), got.body);
    }
    return exchange;
  });
  return { exchanges, strayUpstream };
}
