/**
 * The real Claude Code (default permission mode, print mode) through `ctxshed rescue
 * --owner-from credential`: a team gateway's rules on one machine. The stubs then name the restore
 * tool, not a path, and rescue registers `ctxshed mcp --gateway <the proxy>`; the scripted model
 * reads six files until epochs latch, loads the restore tool with ToolSearch, and restores every
 * stub it saw. Writes observations.json under `--root` for gateway-real-client.test.ts.
 *
 *   node_modules/.bin/tsx test/real-client/gateway-scenario.ts --root /tmp/some-empty-dir
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseStub } from '../../src/core/stub.js';
import { textBlock, toolUse } from '../../src/scripted/message.js';
import { startMessagesApi } from '../../src/scripted/messages-api.js';
import { parseRequestBody, type ReceivedRequest } from '../../src/scripted/received-request.js';
import { CLI_PATH } from '../support/cli-process.js';
import { CLAUDE_BIN, clientEnv, isInNetns, MODEL, reexecInNetns } from './client-env.js';
import { GRANT_RESCUE_FLAGS } from './grant-scenario.js';
import { mainThread, type Responder } from './grant-models.js';
import { FILE_NAMES } from './rescue-scenario.js';
import { runToEnd } from './run-to-end.js';
import { linesOf } from './scratch-text.js';

/** What the run saw. */
export interface GatewayObservations {
  readonly isolated: boolean;
  readonly stateDir: string;
  readonly code: number | null;
  readonly stderr: string;
  /** restore's tool_use id -> the sha256 it asked for. */
  readonly restores: Record<string, string>;
  /** Every tool_result the client sent, by tool_use id, as text. */
  readonly results: Record<string, string>;
  /** Every stub text seen in a request. */
  readonly stubs: string[];
  readonly seconds: number;
}

/** What the scripted model saw: each stub by its sha256, each other tool result by its tool_use id. */
export interface Seen {
  readonly stubs: Map<string, string>;
  readonly results: Record<string, string>;
}

function look(req: ReceivedRequest, seen: Seen): void {
  const body = parseRequestBody(req) as { messages?: Array<{ content?: unknown }> } | undefined;
  for (const m of body?.messages ?? []) {
    if (!Array.isArray(m.content)) continue;
    for (const b of m.content as Array<Record<string, unknown>>) {
      if (b['type'] !== 'tool_result') continue;
      const content = b['content'];
      const text = typeof content === 'string' ? content : Array.isArray(content) ? content.map((c: { text?: string }) => c.text ?? '').join('') : '';
      const stub = parseStub(text);
      if (stub !== undefined) seen.stubs.set(stub.sha256, text);
      else if (typeof b['tool_use_id'] === 'string' && seen.results[b['tool_use_id']] === undefined) seen.results[b['tool_use_id']] = text;
    }
  }
}

/** Reads the files, then loads restore with ToolSearch, then restores every stub seen, then ends. */
export function gatewayModel(files: readonly string[], seen: Seen, restores: Record<string, string>): Responder {
  let next = 0;
  let phase: 'files' | 'search' | 'restore' | 'end' = 'files';
  return mainThread((req) => {
    look(req, seen);
    if (phase === 'files' && next < files.length) return [toolUse('Read', { file_path: files[next] }, `toolu_01File${next++}`)];
    if (phase === 'files') {
      phase = 'search';
      return [toolUse('ToolSearch', { query: 'select:mcp__ctxshed__restore,mcp__ctxshed__spans', max_results: 5 }, 'toolu_01Search')];
    }
    if (phase === 'search') {
      phase = 'restore';
      return [...seen.stubs.keys()].map((sha, i) => {
        const id = `toolu_01Restore${i}`;
        restores[id] = sha;
        return toolUse('mcp__ctxshed__restore', { handle: sha }, id);
      });
    }
    phase = 'end';
    return [textBlock('Done.')];
  });
}

async function main(): Promise<void> {
  const i = process.argv.indexOf('--root');
  if (i === -1 || process.argv[i + 1] === undefined) throw new Error('usage: gateway-scenario.ts --root <empty dir>');
  const relaunched = reexecInNetns();
  if (relaunched !== undefined) process.exit(await relaunched);
  const root = resolve(process.argv[i + 1]!);
  const [home, projectDir, stateDir] = ['home', 'project', 'state'].map((d) => join(root, d)) as [string, string, string];
  for (const dir of [home, projectDir]) mkdirSync(dir, { recursive: true });
  const files = FILE_NAMES.map((name) => join(projectDir, name));
  for (const [n, file] of files.entries()) writeFileSync(file, linesOf(`f${n + 1}`, 12 * 1024));
  const seen: Seen = { stubs: new Map(), results: {} };
  const restores: Record<string, string> = {};
  const model = gatewayModel(files, seen, restores);
  const upstream = await startMessagesApi({ respond: (req) => model(req) });
  try {
    const env = { ...clientEnv(upstream.url, home, isInNetns()) };
    delete env['IS_SANDBOX'];
    const argv = [CLI_PATH, 'rescue', ...GRANT_RESCUE_FLAGS, '--owner-from', 'credential', '--state', stateDir, '--upstream', upstream.url, '--', CLAUDE_BIN];
    const started = performance.now();
    const run = await runToEnd(
      process.execPath,
      [...argv, '-p', 'Read the scratch files.', '--model', MODEL, '--output-format', 'json'],
      projectDir,
      env,
      300_000,
    );
    const seconds = (performance.now() - started) / 1000;
    const observations: GatewayObservations = {
      isolated: isInNetns(),
      stateDir,
      code: run.code,
      stderr: run.stderr.slice(-4000),
      restores,
      results: seen.results,
      stubs: [...seen.stubs.values()],
      seconds,
    };
    writeFileSync(join(root, 'observations.json'), JSON.stringify(observations, null, 2));
  } finally {
    await upstream.close();
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(fileURLToPath(import.meta.url))) await main();
