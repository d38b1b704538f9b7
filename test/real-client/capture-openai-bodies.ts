/**
 * Drives the real Codex CLI against the scripted OpenAI upstream, offline, and saves the request
 * bodies and headers it sends as fixtures.
 *
 *   node_modules/.bin/tsx test/real-client/capture-openai-bodies.ts --out test/fixtures/real-openai
 *
 * Runs itself inside `unshare -n` (loopback only); it refuses to run without it, since Codex has
 * no documented switch that keeps every side call on the base URL. Every request, with its
 * headers, also lands in /tmp/ctxshed-capture-openai/raw, and a report goes to stdout.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, release, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import type { ReceivedRequest } from '../../src/scripted/received-request.js';
import {
  customToolCall,
  functionCall,
  isResponsesRequest,
  messageItem,
  reasoningItem,
  responsesUsage,
  startOpenAiUpstream,
  type OpenAiReply,
} from '../support/responses-upstream.js';
import { isInNetns, reexecInNetns } from './client-env.js';
import { CODEX_BIN, CODEX_TEST_KEY, codexBaseUrlArgs, codexEnv, codexExecArgs } from './codex-env.js';
import { linesOf } from './scratch-text.js';

/** Fixed, so paths in the bodies are the same on every machine and every run. */
const SCRATCH_ROOT = '/tmp/ctxshed-capture-openai';
const HOME_DIR = join(SCRATCH_ROOT, 'home');
const PROJECT_DIR = join(SCRATCH_ROOT, 'project');
const RAW_DIR = join(SCRATCH_ROOT, 'raw');
const CLIENT_TIMEOUT_MS = 300_000;
const BYTES_PER_TOKEN = 4;

export const PROMPTS = ['Please look around this project and tell me what is in it.', 'Now count the lines of every file, and read the big log.'] as const;

function parseArgs(argv: string[]): { out: string } {
  const i = argv.indexOf('--out');
  const out = i === -1 ? undefined : argv[i + 1];
  if (out === undefined) throw new Error('usage: capture-openai-bodies.ts --out <fixture dir>');
  return { out: resolve(out) };
}

function writeProject(): void {
  rmSync(SCRATCH_ROOT, { recursive: true, force: true });
  mkdirSync(HOME_DIR, { recursive: true });
  mkdirSync(join(PROJECT_DIR, 'data'), { recursive: true });
  mkdirSync(join(PROJECT_DIR, 'src'), { recursive: true });
  mkdirSync(RAW_DIR, { recursive: true });
  writeFileSync(join(PROJECT_DIR, 'notes-6k.md'), `# Notes\n\n${linesOf('note', 6 * 1024)}`);
  writeFileSync(join(PROJECT_DIR, 'data', 'big-20k.txt'), linesOf('data', 20 * 1024));
  writeFileSync(join(PROJECT_DIR, 'data', 'big-30k.log'), linesOf('log', 30 * 1024));
  writeFileSync(
    join(PROJECT_DIR, 'unicode.txt'),
    [
      'héllo — ünïcode ✓',
      'emoji: 😀 🚀 👩‍💻 🇫🇷',
      'CJK: 漢字かなカナ 한국어',
      'combining: e\u0301 a\u0308',
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
  writeFileSync(join(PROJECT_DIR, 'src', 'app.ts'), "export const greeting = 'héllo ✓';\n");
}

// ---- the scripted model -------------------------------------------------------------------

/** One model reply: the items it outputs. Tool calls make Codex run real tools. */
type Step = () => object[];

const exec = (cmd: string): object => functionCall('exec_command', { cmd });
/** Codex 0.169.0's code mode: the `exec` custom tool runs JavaScript that calls nested tools. */
const execJs = (cmd: string): object => customToolCall('exec', `const r = await tools.exec_command({cmd: ${JSON.stringify(cmd)}});\ntext(r);\n`);

const TURNS: readonly (readonly Step[])[] = [
  [
    () => [reasoningItem('List the project first.'), exec('ls -la')],
    () => [execJs('cat notes-6k.md')],
    () => [messageItem('Reading the data file next.'), exec('cat data/big-20k.txt')],
    () => [exec('cat unicode.txt'), exec('cat escapes.txt')],
    () => [exec('seq 1 400')],
    () => [reasoningItem('Enough seen.'), messageItem('The project holds notes, two data files, a unicode sample, an escapes sample and src/app.ts.')],
  ],
  [
    () => [exec('wc -l notes-6k.md data/big-20k.txt data/big-30k.log unicode.txt escapes.txt src/app.ts')],
    () => [execJs('cat data/big-30k.log')],
    () => [messageItem('Counted and read; the log has 460 lines.')],
  ],
];

interface Item {
  readonly type?: string;
  readonly role?: string;
  readonly content?: unknown;
}

/** Which turn a request belongs to and how many tool outputs it already carries for that turn. */
function positionOf(input: readonly Item[]): { turn: number; outputs: number } {
  let turn = -1;
  let from = 0;
  input.forEach((item, i) => {
    const text = JSON.stringify(item.content ?? '');
    const at = PROMPTS.findIndex((p) => item.role === 'user' && text.includes(JSON.stringify(p).slice(1, -1)));
    if (at >= 0) {
      turn = at;
      from = i;
    }
  });
  const outputs = input.slice(from).filter((item) => item.type === 'function_call_output' || item.type === 'custom_tool_call_output').length;
  return { turn, outputs };
}

function respond(req: ReceivedRequest): OpenAiReply | undefined {
  if (!isResponsesRequest(req)) return undefined;
  const body = JSON.parse(req.body.toString('utf8')) as { input?: Item[] };
  const { turn, outputs } = positionOf(body.input ?? []);
  const steps = TURNS[turn] ?? [];
  // Step k answers once the calls of steps 0..k-1 all have their outputs.
  let calls = 0;
  let step: Step | undefined;
  for (const candidate of steps) {
    if (calls === outputs) {
      step = candidate;
      break;
    }
    calls += candidate().filter((i) => ['function_call', 'custom_tool_call'].includes((i as Item).type ?? '')).length;
  }
  const output = step?.() ?? [messageItem('Done.')];
  const input = Math.ceil(req.body.length / BYTES_PER_TOKEN);
  const previous = previousInput.get(String(req.headers['session-id'])) ?? 0;
  previousInput.set(String(req.headers['session-id']), input);
  return { kind: 'response', output, usage: responsesUsage(input, previous) };
}

const previousInput = new Map<string, number>();

// ---- running the client -------------------------------------------------------------------

async function runCodex(args: readonly string[]): Promise<string[]> {
  const child = spawn(CODEX_BIN, args, { cwd: PROJECT_DIR, env: codexEnv(HOME_DIR), stdio: ['ignore', 'pipe', 'pipe'] });
  const timer = setTimeout(() => child.kill('SIGKILL'), CLIENT_TIMEOUT_MS);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const code = await new Promise<number | null>((res) => child.on('exit', (c) => res(c)));
  clearTimeout(timer);
  if (code !== 0) throw new Error(`codex exited ${String(code)}:\n${stderr}`);
  return stdout.split('\n').filter((l) => l !== '');
}

// ---- scrubbing and analysis ---------------------------------------------------------------

/** Headers as saved: the credential goes, everything else stays. */
function scrubHeaders(headers: ReceivedRequest['headers']): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = name === 'authorization' || name === 'x-api-key' ? '<redacted>' : value;
  }
  return out;
}

/** Same-length substitutions of what identifies this machine, so offsets in a body do not move. */
function scrubBody(body: Buffer): Buffer {
  const pad = (label: string, len: number): string => (label + 'x'.repeat(len)).slice(0, len);
  const plan = [
    { from: release(), to: pad('redacted', release().length) },
    { from: hostname(), to: pad('host', hostname().length) },
    { from: CODEX_TEST_KEY, to: pad('redacted', CODEX_TEST_KEY.length) },
  ].filter((s) => s.from.length >= 4);
  let out = body;
  for (const { from, to } of plan) {
    const f = Buffer.from(from);
    let at = out.indexOf(f);
    if (at === -1) continue;
    out = Buffer.from(out);
    while (at !== -1) {
      Buffer.from(to).copy(out, at);
      at = out.indexOf(f, at + f.length);
    }
  }
  return out;
}

/** Where `input`'s array value sits in a (canonical) body: found by parsing and re-measuring. */
function inputSpan(body: Buffer): { start: number; end: number } {
  const text = body.toString('utf8');
  const parsed = JSON.parse(text) as Record<string, unknown>;
  const token = JSON.stringify(parsed['input']);
  const start = body.indexOf(Buffer.from(`"input":${token}`)) + Buffer.byteLength('"input":');
  return { start, end: start + Buffer.byteLength(token) };
}

function compareConsecutive(a: Buffer, b: Buffer): string {
  const A = JSON.parse(a.toString('utf8')) as Record<string, unknown>;
  const B = JSON.parse(b.toString('utf8')) as Record<string, unknown>;
  const differing = [...new Set([...Object.keys(A), ...Object.keys(B)])].filter((k) => k !== 'input' && JSON.stringify(A[k]) !== JSON.stringify(B[k]));
  const sa = inputSpan(a);
  const sb = inputSpan(b);
  const aItems = a.subarray(sa.start, sa.end - 1);
  const prefix =
    sa.start === sb.start && b.subarray(sb.start, sb.start + aItems.length).equals(aItems) && a.subarray(0, sa.start).equals(b.subarray(0, sb.start));
  const ai = A['input'] as unknown[];
  const bi = B['input'] as unknown[];
  const added = bi
    .slice(ai.length)
    .map((i) => (i as Item).type ?? (i as Item).role)
    .join(',');
  return `${ai.length}→${bi.length} items (+${added}); bytes before input and A's items are B's prefix: ${prefix ? 'yes' : 'NO'}; top-level differs: ${differing.join(', ') || 'none'}`;
}

function describe(req: ReceivedRequest): string[] {
  if (!isResponsesRequest(req)) return [`${req.method} ${req.path} upgrade=${String(req.headers['upgrade'])}`];
  const body = JSON.parse(req.body.toString('utf8')) as Record<string, unknown>;
  const input = body['input'] as Array<Record<string, unknown>>;
  const outputs = input
    .filter((i) => i['type'] === 'function_call_output' || i['type'] === 'custom_tool_call_output')
    .map(
      (i) =>
        `${String(i['type'])}:${typeof i['output'] === 'string' ? `string(${Buffer.byteLength(i['output'])}B)` : `array(${JSON.stringify(i['output']).slice(0, 80)})`}`,
    );
  return [
    `keys: ${Object.keys(body).join(', ')}`,
    `canonical JSON.stringify bytes: ${JSON.stringify(body) === req.body.toString('utf8')}`,
    `stream=${String(body['stream'])} store=${String(body['store'])} prompt_cache_key=${String(body['prompt_cache_key'])} previous_response_id=${String(body['previous_response_id'])}`,
    `items: ${input.map((i) => String(i['type'] ?? `(role ${String(i['role'])})`)).join(',')}`,
    `tool outputs: ${outputs.join('; ') || 'none'}`,
    `headers: session-id=${String(req.headers['session-id'])} thread-id=${String(req.headers['thread-id'])} content-encoding=${String(req.headers['content-encoding'])} accept=${String(req.headers['accept'])}`,
    `header names: ${Object.keys(req.headers).join(', ')}`,
  ];
}

// ---- main ---------------------------------------------------------------------------------

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const relaunched = reexecInNetns();
  if (relaunched !== undefined) process.exit(await relaunched);
  if (!isInNetns()) throw new Error('unshare -n is not available here; refusing to run Codex with a network');
  writeProject();
  const upstream = await startOpenAiUpstream(respond);
  const lines: string[][] = [];
  try {
    const common = [...codexBaseUrlArgs(upstream.baseUrl), ...codexExecArgs(PROJECT_DIR)];
    lines.push(await runCodex(['exec', ...common, PROMPTS[0]]));
    const started = lines[0]!.map((l) => JSON.parse(l) as { type?: string; thread_id?: string }).find((e) => e.type === 'thread.started');
    if (started?.thread_id === undefined) throw new Error('codex printed no thread.started event');
    lines.push(await runCodex(['exec', ...common, 'resume', started.thread_id, PROMPTS[1]]));
  } finally {
    await upstream.close();
  }

  const version = spawnSync(CODEX_BIN, ['--version'], { encoding: 'utf8', env: codexEnv(HOME_DIR) }).stdout.trim();
  for (const req of upstream.requests) {
    const name = String(req.index).padStart(3, '0');
    writeFileSync(join(RAW_DIR, `${name}.body`), req.body);
    writeFileSync(join(RAW_DIR, `${name}.head.json`), JSON.stringify({ method: req.method, path: req.path, headers: req.headers }, null, 2));
  }
  const model = upstream.requests.filter(isResponsesRequest);
  const leaks = [userInfo().homedir, '/work/', hostname(), CODEX_TEST_KEY].filter(
    (s) => s.length >= 4 && model.some((r) => scrubBody(r.body).includes(Buffer.from(s))),
  );

  const upgrade = upstream.requests.find((r) => !isResponsesRequest(r));
  const withText = (s: string): ReceivedRequest | undefined => model.find((r) => r.body.includes(Buffer.from(s)));
  const picks: Array<[string, ReceivedRequest | undefined]> = [
    ['websocket-upgrade', upgrade],
    ['first', model[0]],
    ['after-exec-js', withText('"type":"custom_tool_call_output"')],
    ['after-big-read', withText('data line 0307')],
    ['turn1-last', model.filter((r) => !r.body.includes(Buffer.from(PROMPTS[1]))).at(-1)],
    ['resumed-first', withText(PROMPTS[1])],
    ['last', model.at(-1)],
  ];
  mkdirSync(args.out, { recursive: true });
  for (const f of readdirSync(args.out)) if (f.endsWith('.json')) rmSync(join(args.out, f));
  const saved: string[] = [];
  picks.forEach(([desc, req], i) => {
    if (req === undefined) throw new Error(`no request for ${desc}`);
    const stem = `${String(i + 1).padStart(2, '0')}-${desc}`;
    writeFileSync(
      join(args.out, `${stem}.headers.json`),
      `${JSON.stringify({ method: req.method, path: req.path, headers: scrubHeaders(req.headers) }, null, 2)}\n`,
    );
    if (!isResponsesRequest(req)) {
      saved.push(`${stem}.headers.json  upstream request #${req.index} ${req.method} ${req.path} (no body)`);
      return;
    }
    const body = scrubBody(req.body);
    JSON.parse(body.toString('utf8'));
    writeFileSync(join(args.out, `${stem}.json`), body);
    saved.push(`${stem}.json  ${body.length} B  upstream request #${req.index} ${req.method} ${req.path}`);
  });

  const report: string[] = [`client: ${version}`, `date: ${new Date().toISOString()}`, 'network: unshare -n'];
  report.push(`possible leaks left: ${leaks.join(', ') || 'none'}`);
  report.push('saved:', ...saved.map((s) => `  ${s}`));
  report.push(`codex events: ${lines.map((ls) => ls.map((l) => (JSON.parse(l) as { type: string }).type).join(',')).join(' | ')}`);
  for (const req of upstream.requests) report.push(`\n## #${req.index} ${req.method} ${req.path}`, ...describe(req).map((l) => `  ${l}`));
  report.push('\n## consecutive model requests');
  for (let i = 1; i < model.length; i += 1)
    report.push(`  ${model[i - 1]!.index}→${model[i]!.index}: ${compareConsecutive(model[i - 1]!.body, model[i]!.body)}`);
  const text = report.join('\n');
  writeFileSync(join(SCRATCH_ROOT, 'report.md'), text);
  console.log(text);
}

await main();
