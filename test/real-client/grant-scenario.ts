/**
 * The real Claude Code client as users run it: DEFAULT permission mode (no
 * --dangerously-skip-permissions), print mode, through `ctxshed rescue` with no grant given by
 * hand. Drives the runs below against a scripted upstream on 127.0.0.1 and writes what it saw to
 * `--root` (observations.json and every request body) for grant-real-client.test.ts.
 *
 *   node_modules/.bin/tsx test/real-client/grant-scenario.ts --root /tmp/some-empty-dir
 *
 * Runs, in order, all on one state directory:
 *   readback   reads six files until an epoch latches, Reads back every stub's file, restores each
 *              over MCP (after ToolSearch loads the tools), calls spans; then `ctxshed seal`s one
 *              block and tries a Read of its path and a restore of it
 *   nogrant    the same Read of an elided file with `rescue --no-grant`: the control
 *   prompt     the grant beside the user's own variadic --allowedTools and a prompt argument
 *   dashdash   a prompt after `--` that looks like a flag
 *   resume     `PROMPT -p --resume ID` of the prompt run: a prompt argument right after the grant
 *   search-*   an MCP server of the user's (--mcp-config): through rescue (tool search on by
 *              rescue), through `serve` with its printed flags and variable set by hand, and
 *              through rescue with ENABLE_TOOL_SEARCH=false (the control)
 *   version, mcp-list   `claude --version` and `claude mcp list`, with and without rescue
 */
import { runToEnd } from './run-to-end.js';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI_PATH } from '../support/cli-process.js';
import { textBlock, toolUse } from '../../src/scripted/message.js';
import { startMessagesApi, type MessagesApi } from '../../src/scripted/messages-api.js';
import { parseRequestBody, type ReceivedRequest } from '../../src/scripted/received-request.js';
import { CLAUDE_BIN, clientEnv, isInNetns, MODEL, reexecInNetns } from './client-env.js';
import { mainThread, readbackModel, steppedModel, type ReadbackPlan, type Responder } from './grant-models.js';
import { classify, FILE_NAMES } from './rescue-scenario.js';
import { linesOf } from './scratch-text.js';

const CLIENT_TIMEOUT_MS = 120_000;
/** A window with room to restore into, latching early enough that six 12 KB files latch an epoch (the system prompt and tools are about 40 KB). */
export const GRANT_RESCUE_FLAGS = ['--window', '60000', '--rescue-pct', '35', '--keep-recent', '2', '--min-bytes', '1024'];
const ECHO_SERVER = fileURLToPath(new URL('./fixtures/echo-mcp-server.mjs', import.meta.url));
export const ECHO_CONFIG = JSON.stringify({ mcpServers: { user: { type: 'stdio', command: process.execPath, args: [ECHO_SERVER] } } });
export const PROMPTS = {
  readback: 'Read the scratch files.',
  prompt: 'PROMPT-ONE: read it back',
  dashdash: '--not-a-flag: PROMPT-TWO',
  resume: 'PROMPT-THREE: carry on',
  search: 'Use the echo tool.',
};

export interface RunObservation {
  readonly name: string;
  readonly argv: readonly string[];
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The upstream requests of this run: kind and body file under `<root>/bodies`. */
  readonly requests: ReadonlyArray<{ seq: number; kind: string; beta: string; file: string }>;
}

export interface GrantObservations {
  isolated: boolean;
  stateDir: string;
  projectDir: string;
  runs: Record<string, RunObservation>;
  plan: ReadbackPlan;
  /** The elided file the later runs Read, and whether each run's Read got it. */
  probe: { sha256: string; path: string };
  sealOutput: string;
  connectAttempts: number;
}

interface Ctx {
  root: string;
  home: string;
  projectDir: string;
  stateDir: string;
  bodiesDir: string;
  isolated: boolean;
  upstream: MessagesApi;
  setModel: (r: Responder) => void;
}

/** The client's environment, as a person's: no IS_SANDBOX, no permission bypass of any kind. */
function userEnv(ctx: Ctx, baseUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  const env = clientEnv(baseUrl, ctx.home, ctx.isolated);
  delete env['IS_SANDBOX'];
  return { ...env, ...extra };
}

/** One run: `model` answers while `cmd args` runs; its requests are saved as `<name>-<seq>.json`. */
async function run(ctx: Ctx, name: string, model: Responder, cmd: string, args: readonly string[], env: Record<string, string>): Promise<RunObservation> {
  ctx.setModel(model);
  const first = ctx.upstream.requests.length;
  const result = await runToEnd(cmd, args, ctx.projectDir, env, CLIENT_TIMEOUT_MS);
  const requests = ctx.upstream.requests
    .slice(first)
    .filter((r) => r.method === 'POST')
    .map((req: ReceivedRequest) => {
      const file = `${name}-${req.index}.json`;
      writeFileSync(join(ctx.bodiesDir, file), req.body);
      const beta = req.headers['anthropic-beta'];
      return { seq: req.index, kind: classify(req), beta: typeof beta === 'string' ? beta : '', file };
    });
  return { name, argv: [cmd, ...args], ...result, stdout: result.stdout.slice(-20_000), stderr: result.stderr.slice(-4000), requests };
}

const rescueArgv = (ctx: Ctx, extra: readonly string[], claudeArgs: readonly string[]): string[] => [
  CLI_PATH,
  'rescue',
  ...GRANT_RESCUE_FLAGS,
  '--state',
  ctx.stateDir,
  '--upstream',
  ctx.upstream.url,
  ...extra,
  '--',
  CLAUDE_BIN,
  ...claudeArgs,
];
const print = (prompt: string): string[] => ['-p', prompt, '--model', MODEL, '--output-format', 'json'];

/** Loads the user's echo tool (and restore) the way the client offers: loaded, searchable, or waited for. */
function searchModel(sha256: string): Responder {
  let step = 0;
  return mainThread((req) => {
    const tools = new Set(((parseRequestBody(req) as { tools?: Array<{ name: string }> } | undefined)?.tools ?? []).map((t) => t.name));
    step += 1;
    if (step > 4) return [textBlock('Done.')];
    if (tools.has('mcp__user__echo')) {
      step = 4;
      return [
        toolUse('mcp__user__echo', { text: 'hi' }, 'toolu_01Echo'),
        ...(tools.has('mcp__ctxshed__restore') ? [toolUse('mcp__ctxshed__restore', { handle: sha256 }, 'toolu_01SearchRestore')] : []),
      ];
    }
    if (tools.has('ToolSearch'))
      return [toolUse('ToolSearch', { query: 'select:mcp__user__echo,mcp__ctxshed__restore', max_results: 5 }, `toolu_01Search${step}`)];
    if (tools.has('WaitForMcpServers')) return [toolUse('WaitForMcpServers', {}, `toolu_01Wait${step}`)];
    return [textBlock('No echo tool.')];
  });
}

/** `ctxshed serve` on the state directory: its stdout lines (the variables, then the claude command line), and a stop. */
async function startServe(ctx: Ctx): Promise<{ lines: string[]; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [CLI_PATH, 'serve', ...GRANT_RESCUE_FLAGS, '--state', ctx.stateDir, '--upstream', ctx.upstream.url], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  const closed = new Promise<void>((done) => child.on('close', () => done()));
  await new Promise<void>((ready, fail) => {
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString('utf8');
      if (stdout.split('\n').length > 3) ready();
    });
    void closed.then(() => fail(new Error(`serve exited: ${stdout}`)));
  });
  return { lines: stdout.trimEnd().split('\n'), stop: async () => void (child.kill('SIGTERM'), await closed) };
}

/** The words of a line a POSIX shell would split, for the single-quoted words `serve` prints. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const m of line.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)) words.push(m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : m[2]!);
  return words;
}

async function main(): Promise<void> {
  const i = process.argv.indexOf('--root');
  const rootArg = i === -1 ? undefined : process.argv[i + 1];
  if (rootArg === undefined) throw new Error('usage: grant-scenario.ts --root <empty dir>');
  const relaunched = reexecInNetns();
  if (relaunched !== undefined) process.exit(await relaunched);
  const root = resolve(rootArg);
  let model: Responder = () => undefined;
  const upstream = await startMessagesApi({ respond: (req) => model(req) });
  const ctx: Ctx = {
    root,
    home: join(root, 'home'),
    projectDir: join(root, 'project'),
    stateDir: join(root, 'state'),
    bodiesDir: join(root, 'bodies'),
    isolated: isInNetns(),
    upstream,
    setModel: (r) => (model = r),
  };
  for (const dir of [ctx.home, ctx.projectDir, ctx.bodiesDir]) mkdirSync(dir, { recursive: true });
  const files = FILE_NAMES.map((name) => join(ctx.projectDir, name));
  for (const [n, file] of files.entries()) writeFileSync(file, linesOf(`f${n + 1}`, 12 * 1024));
  const runs: Record<string, RunObservation> = {};
  let sealOutput = '';
  try {
    const env = userEnv(ctx, upstream.url);
    const readback = readbackModel(files, (sha) => {
      const sealed = spawnSync(process.execPath, [CLI_PATH, 'seal', sha, '--reason', 'real-client test', '--state', ctx.stateDir], { encoding: 'utf8' });
      sealOutput = `${String(sealed.status)} ${sealed.stdout}${sealed.stderr}`;
    });
    runs['readback'] = await run(ctx, 'readback', readback.respond, process.execPath, rescueArgv(ctx, [], print(PROMPTS.readback)), env);

    // An elided file that is not sealed, for the runs that only need one Read of one.
    const sealedSha = readback.plan.sealed?.stub.sha256;
    const probeName = readdirSync(join(ctx.stateDir, 'elided')).find((n) => n.endsWith('.txt') && !n.startsWith(sealedSha ?? '-'));
    if (probeName === undefined) throw new Error('the readback run elided nothing');
    const probe = { sha256: probeName.slice(0, 64), path: join(ctx.stateDir, 'elided', probeName) };
    const readProbe = [toolUse('Read', { file_path: probe.path }, 'toolu_01ProbeRead')];

    runs['nogrant'] = await run(ctx, 'nogrant', steppedModel([readProbe]), process.execPath, rescueArgv(ctx, ['--no-grant'], print(PROMPTS.prompt)), env);
    const userRule = [toolUse('Bash', { command: 'touch made-by-the-users-rule', description: 'touch' }, 'toolu_01UserRule'), ...readProbe];
    runs['prompt'] = await run(
      ctx,
      'prompt',
      steppedModel([userRule]),
      process.execPath,
      rescueArgv(ctx, [], ['--allowedTools', 'Bash(touch *)', ...print(PROMPTS.prompt)]),
      env,
    );
    runs['dashdash'] = await run(
      ctx,
      'dashdash',
      steppedModel([readProbe]),
      process.execPath,
      rescueArgv(ctx, [], ['-p', '--model', MODEL, '--output-format', 'json', '--', PROMPTS.dashdash]),
      env,
    );
    const sessionId = (JSON.parse(runs['prompt'].stdout || '{}') as { session_id?: string }).session_id ?? 'missing';
    runs['resume'] = await run(
      ctx,
      'resume',
      steppedModel([readProbe]),
      process.execPath,
      rescueArgv(ctx, [], [PROMPTS.resume, '-p', '--resume', sessionId, '--model', MODEL, '--output-format', 'json']),
      env,
    );

    const searchArgs = ['--mcp-config', ECHO_CONFIG, '--allowedTools', 'mcp__user__echo', ...print(PROMPTS.search)];
    runs['search-rescue'] = await run(ctx, 'search-rescue', searchModel(probe.sha256), process.execPath, rescueArgv(ctx, [], searchArgs), env);
    const serve = await startServe(ctx);
    try {
      const [baseLine, searchLine, claudeLine] = serve.lines;
      const words = shellWords(claudeLine ?? '');
      const flags = words.slice(words.indexOf('claude') + 1);
      const byHand = userEnv(ctx, baseLine!.slice('ANTHROPIC_BASE_URL='.length), { ENABLE_TOOL_SEARCH: searchLine!.slice('ENABLE_TOOL_SEARCH='.length) });
      runs['search-serve'] = await run(ctx, 'search-serve', searchModel(probe.sha256), CLAUDE_BIN, [...flags, ...searchArgs], byHand);
    } finally {
      await serve.stop();
    }
    runs['search-off'] = await run(ctx, 'search-off', searchModel(probe.sha256), process.execPath, rescueArgv(ctx, [], searchArgs), {
      ...env,
      ENABLE_TOOL_SEARCH: 'false',
    });

    for (const [name, args] of [
      ['version', ['--version']],
      ['mcp-list', ['mcp', 'list']],
    ] as const) {
      runs[`${name}-direct`] = await run(ctx, `${name}-direct`, () => undefined, CLAUDE_BIN, args, env);
      runs[`${name}-rescue`] = await run(ctx, `${name}-rescue`, () => undefined, process.execPath, rescueArgv(ctx, [], args), env);
    }
    const observations: GrantObservations = {
      isolated: ctx.isolated,
      stateDir: ctx.stateDir,
      projectDir: ctx.projectDir,
      runs,
      plan: readback.plan,
      probe,
      sealOutput,
      connectAttempts: upstream.requests.filter((r) => r.method === 'CONNECT').length,
    };
    writeFileSync(join(root, 'observations.json'), JSON.stringify(observations, null, 2));
  } finally {
    await upstream.close();
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(fileURLToPath(import.meta.url))) await main();
