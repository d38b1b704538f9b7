/**
 * Whether a Claude Code release keeps its tool search on behind a base URL that is not a
 * first-party host, with and without ENABLE_TOOL_SEARCH: the client alone (no ctxshed) against the
 * scripted upstream, offline, with one MCP server of the user's, in print mode. Prints, for each
 * setting, what the first main-thread request carried (the tool search beta, ToolSearch, which
 * tools are deferred, the tools array's size) and the client's debug lines about tool search.
 *
 *   node_modules/.bin/tsx test/real-client/measure-tool-search.ts [--client older]
 *
 * docs/rescue.md ("Tool search") gives the figures; rescue sets ENABLE_TOOL_SEARCH=true by them.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { textBlock } from '../../src/scripted/message.js';
import { startMessagesApi } from '../../src/scripted/messages-api.js';
import { parseRequestBody } from '../../src/scripted/received-request.js';
import { CLAUDE_BIN, CLIENT, clientEnv, isInNetns, MODEL, reexecInNetns } from './client-env.js';
import { ECHO_CONFIG } from './grant-scenario.js';
import { classify } from './rescue-scenario.js';

const CLIENT_TIMEOUT_MS = 120_000;
const TOOL_SEARCH_BETA = 'advanced-tool-use-2025-11-20';
/** Unset, then the values a person might set. */
const SETTINGS: ReadonlyArray<string | undefined> = [undefined, 'true', 'false'];

interface Seen {
  setting: string;
  toolSearchBeta: boolean;
  toolSearchTool: boolean;
  deferred: string[];
  loadedUpFront: string[];
  toolsBytes: number;
  debug: string[];
}

function runClient(args: string[], cwd: string, env: Record<string, string>): Promise<number | null> {
  return new Promise((done) => {
    const child = spawn(CLAUDE_BIN, args, { cwd, env, stdio: ['ignore', 'ignore', 'ignore'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), CLIENT_TIMEOUT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      done(code);
    });
  });
}

async function measure(root: string, setting: string | undefined): Promise<Seen> {
  const dir = join(root, setting ?? 'unset');
  const home = join(dir, 'home');
  const project = join(dir, 'project');
  const debugFile = join(dir, 'debug.log');
  for (const d of [home, project]) mkdirSync(d, { recursive: true });
  const upstream = await startMessagesApi({
    respond: (req) => (classify(req) === 'main' || classify(req) === 'side' ? { kind: 'message', content: [textBlock('ok')], outputTokens: 1 } : undefined),
  });
  try {
    const env = clientEnv(upstream.url, home, isInNetns());
    if (setting !== undefined) env['ENABLE_TOOL_SEARCH'] = setting;
    await runClient(['-p', 'Say ok.', '--model', MODEL, '--output-format', 'json', '--mcp-config', ECHO_CONFIG, '--debug-file', debugFile], project, env);
    const first = upstream.requests.find((r) => classify(r) === 'main');
    const body = (first === undefined ? undefined : parseRequestBody(first)) as { tools?: Array<{ name: string; defer_loading?: boolean }> } | undefined;
    const tools = body?.tools ?? [];
    const beta = first?.headers['anthropic-beta'];
    let debug: string[] = [];
    try {
      debug = readFileSync(debugFile, 'utf8')
        .split('\n')
        .filter((l) => /ToolSearch|ENABLE_TOOL_SEARCH|deferred|first.party/i.test(l));
    } catch {
      debug = readdirSync(dir).includes('debug.log') ? [] : ['(no debug file)'];
    }
    return {
      setting: setting === undefined ? '(unset)' : `ENABLE_TOOL_SEARCH=${setting}`,
      toolSearchBeta: typeof beta === 'string' && beta.split(',').includes(TOOL_SEARCH_BETA),
      toolSearchTool: tools.some((t) => t.name === 'ToolSearch'),
      deferred: tools.filter((t) => t.defer_loading === true).map((t) => t.name),
      loadedUpFront: tools
        .filter((t) => t.name.startsWith('mcp__'))
        .filter((t) => t.defer_loading !== true)
        .map((t) => t.name),
      toolsBytes: JSON.stringify(tools).length,
      debug: debug.map((l) => l.replace(/^\S+ /, '').slice(0, 240)),
    };
  } finally {
    await upstream.close();
  }
}

async function main(): Promise<void> {
  const relaunched = reexecInNetns();
  if (relaunched !== undefined) process.exit(await relaunched);
  const root = mkdtempSync(join(tmpdir(), 'ctxshed-measure-'));
  try {
    console.log(`Claude Code ${CLIENT.version} (${MODEL}), base URL http://127.0.0.1:<port>, network ${isInNetns() ? 'unshare -n' : 'HTTPS_PROXY'}`);
    for (const setting of SETTINGS) console.log(JSON.stringify(await measure(root, setting), null, 2));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(fileURLToPath(import.meta.url))) await main();
