/**
 * Drives the real Claude Code CLI against the scripted upstream, offline, and saves the request
 * bodies it sends as byte-exact fixtures.
 *
 *   node_modules/.bin/tsx test/real-client/capture-bodies.ts \
 *     --claude /tmp/cc/node_modules/.bin/claude --out test/fixtures/real
 *
 * Runs itself inside `unshare -n` (loopback only) when it can; otherwise points HTTPS_PROXY at the
 * upstream, which refuses CONNECT (`--no-unshare` forces that). Every body, with its headers, also lands in
 * /tmp/ctxshed-capture/raw for inspection, and a report of what the client sent goes to stdout.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, release, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { toolUse, type ReplyBlock } from '../../src/scripted/message.js';
import { startMessagesApi } from '../../src/scripted/messages-api.js';
import { isCountTokensRequest, isMessagesRequest, type ReceivedRequest } from '../../src/scripted/received-request.js';
import type { ScriptedReply } from '../../src/scripted/reply.js';
import { clientEnv, MODEL } from './client-env.js';
import { linesOf } from './scratch-text.js';

/** Fixed, so paths in the bodies are the same on every machine and every run. */
const SCRATCH_ROOT = '/tmp/ctxshed-capture';
const HOME_DIR = join(SCRATCH_ROOT, 'home');
const PROJECT_DIR = join(SCRATCH_ROOT, 'project');
const RAW_DIR = join(SCRATCH_ROOT, 'raw');
const CLIENT_TIMEOUT_MS = 300_000;
const NETNS_MARKER = 'CTXSHED_CAPTURE_IN_NETNS';
const BREAKPOINT = ',"cache_control":{"type":"ephemeral"}';

interface Args {
  claude: string;
  out: string;
  /** Skip `unshare -n` and rely on HTTPS_PROXY alone. */
  noUnshare: boolean;
}

function parseArgs(argv: string[]): Args {
  const get = (flag: string): string | undefined => {
    const i = argv.indexOf(flag);
    return i === -1 ? undefined : argv[i + 1];
  };
  const claude = get('--claude');
  const out = get('--out');
  if (claude === undefined || out === undefined) {
    throw new Error('usage: capture-bodies.ts --claude <path to claude> --out <fixture dir> [--no-unshare]');
  }
  return { claude: resolve(claude), out: resolve(out), noUnshare: argv.includes('--no-unshare') };
}

/** Re-run this script in a fresh network namespace with only `lo`, if `unshare -n` works here. */
function reexecInNetns(): number | undefined {
  if (process.env[NETNS_MARKER] === '1') return undefined;
  if (spawnSync('unshare', ['-n', 'true']).status !== 0) return undefined;
  const child = spawnSync(
    'unshare',
    ['-n', 'sh', '-c', 'ip link set lo up && exec "$@"', 'sh', process.execPath, ...process.execArgv, ...process.argv.slice(1)],
    { stdio: 'inherit', env: { ...process.env, [NETNS_MARKER]: '1' } },
  );
  return child.status ?? 1;
}

// ---- the scratch project ------------------------------------------------------------------

function writeProject(): void {
  rmSync(SCRATCH_ROOT, { recursive: true, force: true });
  mkdirSync(HOME_DIR, { recursive: true });
  mkdirSync(join(PROJECT_DIR, 'data'), { recursive: true });
  mkdirSync(join(PROJECT_DIR, 'src'), { recursive: true });
  mkdirSync(RAW_DIR, { recursive: true });
  writeFileSync(join(PROJECT_DIR, 'notes-6k.md'), `# Notes\n\n${linesOf('note', 6 * 1024)}`);
  writeFileSync(join(PROJECT_DIR, 'data', 'big-20k.txt'), linesOf('data', 20 * 1024));
  // Over Read's rough 6 250-token estimate, so the client asks count_tokens before reading it.
  writeFileSync(join(PROJECT_DIR, 'data', 'big-30k.log'), linesOf('log', 30 * 1024));
  writeFileSync(
    join(PROJECT_DIR, 'unicode.txt'),
    [
      'héllo — ünïcode ✓',
      'emoji: 😀 🚀 👩‍💻 🇫🇷 (astral plane, ZWJ sequence, flag)',
      'CJK: 漢字かなカナ 한국어',
      'combining: e\u0301 a\u0308 (decomposed)',
      'RTL: שלום עולם مرحبا',
      'math: ∑ ∫ ≤ ≠ ∞ 𝔸',
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(PROJECT_DIR, 'escapes.txt'),
    [
      'double "quotes" and \'single\' quotes',
      'back\\slashes \\n \\u0041 C:\\Users\\test',
      'tab\tseparated\tcolumns',
      'controls: \u0001 \u0007 \u001b[31mred\u001b[0m \u007f end',
      'carriage\r return, form\ffeed, vertical\u000btab',
      'json-ish: {"a": [1, "two", null], "b": "\\"nested\\""}',
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(PROJECT_DIR, 'src', 'app.ts'),
    [
      "import { createServer } from 'node:http';",
      '',
      '/** Answers every request with a greeting. */',
      'export function start(port: number): void {',
      "  createServer((_req, res) => res.end('héllo ✓\\n')).listen(port);",
      '}',
      '',
    ].join('\n'),
  );
}

// ---- the scripted model -----------------------------------------------------------------

const PROMPTS = [
  'Please look around this project: list it, read notes-6k.md, data/big-20k.txt, unicode.txt and escapes.txt, and run `seq 1 400`. Then summarize what you found.',
  'Now count the lines of data/big-20k.txt, show the raw bytes of escapes.txt, and read data/big-30k.log.',
  'Finally, have a subagent read src/app.ts and tell me what it does.',
];

const p = (name: string): string => join(PROJECT_DIR, name);
const text = (t: string): ReplyBlock => ({ type: 'text', text: t });
const thinking = (t: string): ReplyBlock => ({
  type: 'thinking',
  thinking: t,
  // Not a real signature: the client stores and resends it without checking.
  signature: `Eu${Buffer.from(`ctxshed-capture:${t}`).toString('base64')}`,
});
const bash = (command: string, description: string): ReplyBlock => toolUse('Bash', { command, description });
const read = (file: string): ReplyBlock => toolUse('Read', { file_path: p(file) });

/** One reply per main-thread request, in order; the two user prompts end at the end_turn texts. */
const STEPS: Array<() => ReplyBlock[]> = [
  () => [
    thinking('The user wants a tour of the project. Start with a listing.'),
    text("I'll start by listing the project."),
    bash('ls -la', 'List project files'),
  ],
  () => [read('notes-6k.md')],
  () => [text('Now the big data file.'), read('data/big-20k.txt')],
  () => [read('unicode.txt'), read('escapes.txt')],
  () => [bash('seq 1 400', 'Print the numbers 1 to 400')],
  () => [
    thinking('All files read; one more check of sizes before summarizing.'),
    bash('wc -c unicode.txt escapes.txt && ls data src', 'Count bytes and list subfolders'),
  ],
  () => [
    text(
      'Summary: notes-6k.md holds ~6 KB of notes, data/big-20k.txt ~20 KB of numbered lines, unicode.txt non-ASCII text (héllo — ünïcode ✓ 😀), escapes.txt quotes, backslashes, tabs and control characters; `seq 1 400` printed 400 lines.',
    ),
  ],
  () => [bash('wc -l data/big-20k.txt', 'Count lines in the big file'), bash('od -c escapes.txt | head -20', 'Show raw bytes of escapes.txt')],
  () => [read('data/big-30k.log')],
  () => [text('data/big-20k.txt has its lines counted above; escapes.txt holds \\t, \\r, \\f, \\v, ESC and DEL bytes; big-30k.log is 30 KB of log lines.')],
  () => [
    toolUse('Agent', {
      description: 'Read src/app.ts',
      prompt: `Read ${p('src/app.ts')} and report in one sentence what it does.`,
      subagent_type: 'general-purpose',
    }),
  ],
  () => [text('The subagent reports: src/app.ts starts an HTTP server that answers "héllo ✓".')],
];

/** The subagent's replies: one Read, then its report. */
const SUBAGENT_STEPS: Array<() => ReplyBlock[]> = [
  () => [read('src/app.ts')],
  () => [text('src/app.ts exports start(port), which starts an HTTP server answering every request with "héllo ✓".')],
];

function hasTool(req: ReceivedRequest, name: string): boolean {
  const body = JSON.parse(req.body.toString('utf8')) as { tools?: Array<{ name?: string }> };
  return (body.tools ?? []).some((t) => t.name === name);
}

interface ScriptedModel {
  respond: (req: ReceivedRequest) => ScriptedReply | undefined;
  /** The content of each main-thread reply, in order, to compare with what the client resends. */
  sent: ReplyBlock[][];
}

/** A scripted thread: its replies in order; the API prices each with its prompt-cache model. */
function makeThread(steps: Array<() => ReplyBlock[]>): () => ReplyBlock[] {
  let step = 0;
  return () => {
    const content = (steps[step] ?? (() => [text('Done.')]))();
    step += 1;
    return content;
  };
}

function makeModel(): ScriptedModel {
  const mainThread = makeThread(STEPS);
  const subagentThread = makeThread(SUBAGENT_STEPS);
  const sent: ReplyBlock[][] = [];
  const respond = (req: ReceivedRequest): ScriptedReply | undefined => {
    switch (classify(req)) {
      case 'count_tokens':
      case 'other':
        return undefined;
      case 'side':
        // A side call (session title): same model, no tools, JSON asked for by output_config.
        return { kind: 'message', content: [text('{"title": "Tour the scratch project"}')], outputTokens: 12 };
      case 'subagent':
        return { kind: 'message', content: subagentThread() };
      case 'main': {
        const content = mainThread();
        sent.push(content);
        return { kind: 'message', content };
      }
    }
  };
  return { respond, sent };
}

// ---- running the client -----------------------------------------------------------------

async function runClient(claude: string, baseUrl: string, isolated: boolean): Promise<void> {
  const env = clientEnv(baseUrl, HOME_DIR, isolated);
  const args = ['--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', '--dangerously-skip-permissions', '--model', MODEL];
  const child = spawn(claude, args, { cwd: PROJECT_DIR, env, stdio: ['pipe', 'pipe', 'pipe'] });
  const timer = setTimeout(() => child.kill('SIGKILL'), CLIENT_TIMEOUT_MS);
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));

  const send = (prompt: string): void => {
    child.stdin.write(`${JSON.stringify({ type: 'user', message: { role: 'user', content: prompt } })}\n`);
  };
  const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
  let turn = 0;
  send(PROMPTS[0]!);
  for await (const line of createInterface({ input: child.stdout })) {
    const msg = JSON.parse(line) as { type?: string; subtype?: string; is_error?: boolean; result?: string; response?: unknown };
    if (msg.type === 'control_response') {
      console.error(`title: ${JSON.stringify(msg.response)}`);
      send(PROMPTS[turn]!);
      continue;
    }
    if (msg.type !== 'result') continue;
    console.error(`turn ${turn + 1}: ${msg.subtype ?? ''} error=${String(msg.is_error)} ${(msg.result ?? '').slice(0, 80)}`);
    turn += 1;
    if (turn === 1) {
      // What the interactive client does after the first prompt: one title side call. In
      // stream-json mode it runs only when asked through this control request.
      const request = { subtype: 'generate_session_title', description: PROMPTS[0], persist: false };
      child.stdin.write(`${JSON.stringify({ type: 'control_request', request_id: 'title-1', request })}\n`);
    } else if (turn < PROMPTS.length) send(PROMPTS[turn]!);
    else child.stdin.end();
  }
  const code = await exited;
  clearTimeout(timer);
  // 2.1.328 runs the subagent in the background: its completion makes one more main-thread turn.
  if (code !== 0 || turn < PROMPTS.length) {
    throw new Error(`claude exited ${String(code)} after ${turn} turn(s):\n${stderr}`);
  }
}

// ---- picking, scrubbing and saving fixtures ----------------------------------------------

interface Captured {
  req: ReceivedRequest;
  kind: 'main' | 'subagent' | 'side' | 'count_tokens' | 'other';
}

function classify(req: ReceivedRequest): Captured['kind'] {
  if (isCountTokensRequest(req)) return 'count_tokens';
  if (!isMessagesRequest(req)) return 'other';
  if (!hasTool(req, 'Bash')) return 'side';
  // Subagent calls carry the same session id as the main thread plus their own agent id.
  return req.headers['x-claude-code-agent-id'] === undefined ? 'main' : 'subagent';
}

/** Same-length substitutions, so offsets and lengths in a body do not move. */
function scrubPlan(bodies: Buffer[]): Array<{ from: string; to: string; why: string }> {
  const plan: Array<{ from: string; to: string; why: string }> = [];
  const pad = (label: string, len: number): string => (label + 'x'.repeat(len)).slice(0, len);
  for (const body of bodies) {
    const parsed = JSON.parse(body.toString('utf8')) as { metadata?: { user_id?: string } };
    const userId = parsed.metadata?.user_id;
    if (userId === undefined) continue;
    const ids = JSON.parse(userId) as Record<string, string>;
    for (const key of ['device_id', 'account_uuid']) {
      const v = ids[key];
      if (v !== undefined && v.length > 0 && !plan.some((s) => s.from === v)) {
        plan.push({ from: v, to: '0'.repeat(v.length), why: `metadata.user_id ${key}` });
      }
    }
  }
  const kernel = release();
  plan.push({ from: `OS Version: Linux ${kernel}`, to: `OS Version: Linux ${pad('redacted', kernel.length)}`, why: 'kernel release in the system prompt' });
  const host = hostname();
  if (host.length >= 4) plan.push({ from: host, to: pad('host', host.length), why: 'hostname' });
  return plan;
}

function applyScrub(body: Buffer, plan: Array<{ from: string; to: string }>): Buffer {
  let out = body;
  for (const { from, to } of plan) {
    const f = Buffer.from(from);
    const t = Buffer.from(to);
    if (f.length !== t.length) throw new Error('scrub must keep lengths');
    let at = out.indexOf(f);
    if (at === -1) continue;
    out = Buffer.from(out);
    while (at !== -1) {
      t.copy(out, at);
      at = out.indexOf(f, at + f.length);
    }
  }
  return out;
}

// ---- analysis ---------------------------------------------------------------------------

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** The earlier message as the next request is expected to resend it: breakpoint dropped, lone text prompt collapsed. */
function withoutBreakpoint(message: Json): Json {
  const m = structuredClone(message) as { [k: string]: Json };
  const content = m['content'];
  if (!Array.isArray(content)) return m;
  for (const block of content) {
    if (block !== null && typeof block === 'object' && !Array.isArray(block)) delete block['cache_control'];
  }
  return m;
}

function collapsedPrompt(message: Json): Json {
  const m = message as { [k: string]: Json };
  const content = m['content'];
  if (Array.isArray(content) && content.length === 1) {
    const only = content[0] as { [k: string]: Json };
    if (only['type'] === 'text' && Object.keys(only).length === 2) return { ...m, content: only['text'] ?? '' };
  }
  return m;
}

function compareConsecutive(a: Buffer, b: Buffer): string[] {
  const notes: string[] = [];
  const A = JSON.parse(a.toString('utf8')) as { [k: string]: Json };
  const B = JSON.parse(b.toString('utf8')) as { [k: string]: Json };
  const keys = [...new Set([...Object.keys(A), ...Object.keys(B)])].filter((k) => k !== 'messages');
  const differing = keys.filter((k) => JSON.stringify(A[k]) !== JSON.stringify(B[k]));
  notes.push(differing.length === 0 ? 'all other top-level fields identical' : `top-level differs: ${differing.join(', ')}`);
  const am = A['messages'] as Json[];
  const bm = B['messages'] as Json[];
  const changed: string[] = [];
  for (let i = 0; i < am.length; i += 1) {
    const sa = JSON.stringify(am[i]);
    const sb = JSON.stringify(bm[i]);
    if (sa === sb) continue;
    const dropped = withoutBreakpoint(am[i]!);
    if (JSON.stringify(dropped) === sb) changed.push(`#${i}: breakpoint removed`);
    else if (JSON.stringify(collapsedPrompt(dropped)) === sb) changed.push(`#${i}: breakpoint removed, [text] became string`);
    else changed.push(`#${i}: OTHER CHANGE`);
  }
  // Byte-level, without re-serializing anything: cut A at the end of its messages array, drop
  // its last breakpoint, and see whether B's bytes start with that (or with that and the lone
  // text prompt collapsed to a string).
  const aRaw = a.toString('utf8');
  const bRaw = b.toString('utf8');
  const messagesEnd = `{"model":${JSON.stringify(A['model'])},"messages":${JSON.stringify(am)}`.length - 1;
  let prefix = aRaw.slice(0, messagesEnd);
  const at = prefix.lastIndexOf(BREAKPOINT);
  if (at !== -1) prefix = prefix.slice(0, at) + prefix.slice(at + BREAKPOINT.length);
  const lastStart = prefix.lastIndexOf('{"role":');
  const lonePrompt = '{"role":"user","content":[{"type":"text","text":';
  const collapsed =
    prefix.startsWith(lonePrompt, lastStart) && prefix.endsWith('}]}')
      ? `${prefix.slice(0, lastStart)}{"role":"user","content":${prefix.slice(lastStart + lonePrompt.length, -3)}}`
      : undefined;
  const byteVerdict = bRaw.startsWith(prefix)
    ? 'yes, minus the last breakpoint'
    : collapsed !== undefined && bRaw.startsWith(collapsed)
      ? 'yes, minus the last breakpoint and with the lone text prompt collapsed to a string'
      : 'NO';
  notes.push(
    `${am.length}→${bm.length} messages; earlier messages changed: ${changed.length === 0 ? 'none' : changed.join('; ')}; ` +
      `B's bytes start with A's messages bytes: ${byteVerdict} (A cut at byte ${Buffer.byteLength(aRaw.slice(0, messagesEnd))})`,
  );
  return notes;
}

interface Block {
  [k: string]: Json;
}

function describeRequest(req: ReceivedRequest): string[] {
  const out: string[] = [];
  const body = JSON.parse(req.body.toString('utf8')) as { [k: string]: Json };
  out.push(`keys: ${Object.keys(body).join(', ')}`);
  out.push(`canonical JSON.stringify bytes: ${JSON.stringify(body) === req.body.toString('utf8')}`);
  const cc: string[] = [];
  const walk = (v: Json, path: string): void => {
    if (Array.isArray(v)) for (const [i, x] of v.entries()) walk(x, `${path}[${i}]`);
    else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === 'cache_control') cc.push(`${path} ${JSON.stringify(x)}`);
        else walk(x, `${path}.${k}`);
      }
    }
  };
  walk(body, '$');
  out.push(`cache_control at: ${cc.join(' | ')}`);
  const messages = Array.isArray(body['messages']) ? (body['messages'] as Json[]) : [];
  const roles = messages.map((m) => (m as Block)['role']);
  out.push(`roles: ${roles.join(',')} (role "system": ${roles.filter((r) => r === 'system').length})`);
  const results: string[] = [];
  const thinkingBlocks: string[] = [];
  messages.forEach((m, i) => {
    const content = (m as Block)['content'];
    if (!Array.isArray(content)) return;
    for (const b of content as Block[]) {
      if (b['type'] === 'tool_result') {
        const c = b['content'];
        const shape = typeof c === 'string' ? `string(${Buffer.byteLength(c)}B)` : `array(${JSON.stringify(c).slice(0, 60)}…)`;
        const reminder = JSON.stringify(c).includes('<system-reminder>') ? ' +system-reminder' : '';
        results.push(`#${i} ${shape}${reminder} keys=${Object.keys(b).join('/')}`);
      }
      if (b['type'] === 'thinking' || b['type'] === 'redacted_thinking') thinkingBlocks.push(`#${i} ${String(b['type'])}`);
    }
  });
  out.push(`tool_results: ${results.join('; ') || 'none'}`);
  out.push(`thinking blocks: ${thinkingBlocks.join('; ') || 'none'}`);
  const h = req.headers;
  out.push(
    `headers: session-id=${String(h['x-claude-code-session-id'])} agent-id=${String(h['x-claude-code-agent-id'])} ` +
      `beta=${String(h['anthropic-beta'])} accept-encoding=${String(h['accept-encoding'])} content-encoding=${String(h['content-encoding'])}`,
  );
  out.push(`all header names: ${Object.keys(h).join(', ')}`);
  return out;
}

// ---- main -------------------------------------------------------------------------------

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const relaunched = args.noUnshare ? undefined : reexecInNetns();
  if (relaunched !== undefined) process.exit(relaunched);
  const isolated = process.env[NETNS_MARKER] === '1';
  console.error(isolated ? 'network: inside unshare -n (loopback only)' : 'network: HTTPS_PROXY -> upstream (CONNECT refused)');

  writeProject();
  const model = makeModel();
  // Each thread is its own conversation for the API's prompt-cache model.
  const upstream = await startMessagesApi({
    conversationOf: (req) => `${classify(req)} ${String(req.headers['x-claude-code-agent-id'] ?? '')}`,
    respond: model.respond,
  });
  try {
    await runClient(args.claude, upstream.url, isolated);
  } finally {
    await upstream.close();
  }

  const version = spawnSync(args.claude, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const captured: Captured[] = upstream.requests.map((req) => ({ req, kind: classify(req) }));
  captured.forEach(({ req, kind }) => {
    const name = `${String(req.index).padStart(3, '0')}-${kind}`;
    writeFileSync(join(RAW_DIR, `${name}.body`), req.body);
    writeFileSync(join(RAW_DIR, `${name}.head.json`), JSON.stringify({ method: req.method, path: req.path, headers: req.headers }, null, 2));
  });

  const main = captured.filter((c) => c.kind === 'main').map((c) => c.req);
  const side = captured.filter((c) => c.kind === 'side').map((c) => c.req);
  const counts = captured.filter((c) => c.kind === 'count_tokens').map((c) => c.req);
  const subagent = captured.filter((c) => c.kind === 'subagent').map((c) => c.req);
  const firstWith = (s: string): ReceivedRequest | undefined => main.find((r) => r.body.includes(Buffer.from(s)));
  const picks: Array<[string, ReceivedRequest | undefined]> = [
    ['main-first', main[0]],
    // The first body naming a file by its full path is the one carrying its Read result.
    ['main-after-big-read', firstWith(p('data/big-20k.txt'))],
    ['main-after-parallel-reads', firstWith(p('escapes.txt'))],
    ['count-tokens', counts[0]],
    ['side-title', side[0]],
    ['main-turn2-first', firstWith(PROMPTS[1]!)],
    ['main-turn3-first', firstWith(PROMPTS[2]!)],
    ['subagent-last', subagent.at(-1)],
    ['main-last', main.at(-1)],
  ];

  const plan = scrubPlan(main.concat(side, subagent).map((r) => r.body));
  const all = captured.map((c) => applyScrub(c.req.body, plan));
  const leaks = [userInfo().homedir, '/work/', hostname()].filter((s) => s.length >= 4 && all.some((b) => b.includes(Buffer.from(s))));

  // Old fixtures go, the hand-written README.md stays.
  mkdirSync(args.out, { recursive: true });
  for (const f of readdirSync(args.out)) if (f.endsWith('.json')) rmSync(join(args.out, f));
  let n = 0;
  const saved: string[] = [];
  for (const [desc, req] of picks) {
    if (req === undefined) continue;
    n += 1;
    const file = `${String(n).padStart(2, '0')}-${desc}.json`;
    const scrubbed = applyScrub(req.body, plan);
    JSON.parse(scrubbed.toString('utf8'));
    writeFileSync(join(args.out, file), scrubbed);
    saved.push(`${file}  ${scrubbed.length} B  upstream request #${req.index}  ${req.method} ${req.path}`);
  }

  const report: string[] = [];
  report.push(`client: ${version}`, `date: ${new Date().toISOString()}`, `network: ${isolated ? 'unshare -n' : 'HTTPS_PROXY'}`);
  report.push(`requests: ${captured.map((c) => `#${c.req.index} ${c.req.method} ${c.req.path} ${c.kind} ${c.req.body.length}B`).join('\n  ')}`);
  report.push(
    `scrubbed (same length): ${plan.map((s) => `${s.why}: ${s.from.length} chars${all.some((b) => b.includes(Buffer.from(s.to))) ? '' : ' (absent)'}`).join('; ')}`,
  );
  report.push(`possible leaks left: ${leaks.join(', ') || 'none'}`);
  report.push(
    `CONNECT attempts: ${
      captured
        .filter((c) => c.req.method === 'CONNECT')
        .map((c) => c.req.path)
        .join(', ') || 'none'
    }`,
  );
  report.push('saved:', ...saved.map((s) => `  ${s}`));
  for (const c of captured) {
    if (c.kind === 'other') continue;
    report.push(`\n## #${c.req.index} ${c.kind}`, ...describeRequest(c.req).map((l) => `  ${l}`));
  }
  report.push('\n## assistant turns as resent in the last main request vs what the upstream sent');
  const lastBody = JSON.parse(main.at(-1)!.body.toString('utf8')) as { messages: Array<{ role: string; content: unknown }> };
  const resent = lastBody.messages.filter((m) => m.role === 'assistant');
  resent.forEach((m, i) => {
    const same = JSON.stringify(m.content) === JSON.stringify(model.sent[i]);
    report.push(
      `  assistant #${i}: ${same ? 'verbatim' : `DIFFERS: sent ${JSON.stringify(model.sent[i]).slice(0, 200)} / resent ${JSON.stringify(m.content).slice(0, 200)}`}`,
    );
  });
  for (const [label, thread] of [
    ['main', main],
    ['subagent', subagent],
  ] as const) {
    report.push(`\n## consecutive ${label} requests`);
    for (let i = 1; i < thread.length; i += 1) {
      report.push(`  ${thread[i - 1]!.index}→${thread[i]!.index}: ${compareConsecutive(thread[i - 1]!.body, thread[i]!.body).join(' | ')}`);
    }
  }
  const text = report.join('\n');
  writeFileSync(join(SCRATCH_ROOT, 'report.md'), text);
  console.log(text);
}

await main();
