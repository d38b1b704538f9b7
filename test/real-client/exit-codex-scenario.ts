/**
 * The real-client scenario behind exit-codex.test.ts (issue 41, "exit codes tell the truth"): the
 * real Codex CLI through `ctxshed rescue`, straight to the proxy (no hop: Codex's own WebSocket is
 * what ctxshed must close on its way out), reading 16 files of 12 KB with `--window 40000`, so
 * epochs latch, and a scripted API that refuses anything over 40,000 tokens: once no epoch can free
 * enough, the refusal reaches Codex, which exits 1 with its WebSocket still open (a session that
 * ends well exits 0 the same way: rescue-codex.test.ts). Before the fix rescue exited 13 here.
 *
 * The `codex` rescue runs is a wrapper that runs the real one and writes the code it exited with,
 * so the test can compare it with the code `rescue` exited with.
 *
 *   node_modules/.bin/tsx test/real-client/exit-codex-scenario.ts --root /tmp/some-empty-dir
 *
 * Runs only inside `unshare -n` (loopback only); it re-runs itself there, and exits 3 when it cannot.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ReceivedRequest } from '../../src/scripted/received-request.js';
import { CLI_PATH } from '../support/cli-process.js';
import { functionCall, isResponsesRequest, messageItem, responsesUsage, startOpenAiUpstream } from '../support/responses-upstream.js';
import { isInNetns, reexecInNetns } from './client-env.js';
import { CODEX_BIN, CODEX_MODEL, codexEnv } from './codex-env.js';
import { CANNOT_ISOLATE } from './codex-runs.js';
import { runToEnd } from './run-to-end.js';
import { linesOf } from './scratch-text.js';

const FILE_COUNT = 16;
const FILE_BYTES = 12 * 1024;
const BYTES_PER_TOKEN = 4;
const WINDOW = 40_000;
const CLIENT_TIMEOUT_MS = 240_000;

/** One session: how it ended, in Codex's own words and in rescue's. */
export interface ExitRun {
  /** The code `ctxshed rescue` exited with (null: killed, by a signal or the time limit). */
  readonly rescueCode: number | null;
  /** The code the real Codex exited with, as the wrapper saw it (null: it never wrote one). */
  readonly codexCode: number | null;
  /** Wire records that latched an epoch, and the model calls that came over a WebSocket. */
  readonly latched: number;
  readonly overWebSocket: number;
  readonly stderr: string;
}

export interface ExitObservations {
  readonly run: ExitRun;
}

function respondTo(req: ReceivedRequest, previous: { tokens: number }): ReturnType<Parameters<typeof startOpenAiUpstream>[0]> {
  if (!isResponsesRequest(req)) return undefined;
  const input = Math.ceil(req.body.length / BYTES_PER_TOKEN);
  const usage = responsesUsage(input, Math.min(previous.tokens, input));
  previous.tokens = input;
  const body = JSON.parse(req.body.toString('utf8')) as { input?: Array<{ type?: string }> };
  const outputs = (body.input ?? []).filter((i) => i.type === 'function_call_output').length;
  if (outputs < FILE_COUNT) return { kind: 'response', output: [functionCall('exec_command', { cmd: `cat f${outputs + 1}.txt` })], usage };
  return { kind: 'response', output: [messageItem('Read all sixteen.')], usage };
}

async function runSession(root: string): Promise<ExitRun> {
  const dir = join(root, 'session');
  const [home, project, state, bin] = ['home', 'project', 'state', 'bin'].map((d) => join(dir, d)) as [string, string, string, string];
  for (const d of [home, project, bin]) mkdirSync(d, { recursive: true });
  for (let i = 1; i <= FILE_COUNT; i++) writeFileSync(join(project, `f${i}.txt`), linesOf(`f${i}`, FILE_BYTES));
  const codeFile = join(dir, 'codex-exit');
  // Named `codex`, so rescue gives it the proxy as Codex's base URL; it runs the real one and notes its code.
  const wrapper = join(bin, 'codex');
  writeFileSync(wrapper, `#!/bin/sh\n'${CODEX_BIN}' "$@"\ncode=$?\nprintf '%s' "$code" > '${codeFile}'\nexit "$code"\n`);
  chmodSync(wrapper, 0o755);
  const previous = { tokens: 0 };
  const upstream = await startOpenAiUpstream((req) => respondTo(req, previous), { contextWindow: { tokens: WINDOW, bytesPerToken: BYTES_PER_TOKEN } });
  try {
    // The levers that make its last turn refused as too long (70%, six recent results, tool results only).
    const args = [
      CLI_PATH,
      'rescue',
      '--window',
      String(WINDOW),
      '--rescue-pct',
      '70',
      '--keep-recent',
      '6',
      '--deep',
      'none',
      '--state',
      state,
      '--upstream',
      upstream.baseUrl,
      '--',
      wrapper,
    ];
    const exec = ['exec', '--skip-git-repo-check', '--json', '-m', CODEX_MODEL, '-C', project, 'Read every file.'];
    const result = await runToEnd(process.execPath, [...args, ...exec], project, codexEnv(home), CLIENT_TIMEOUT_MS);
    const wire = readFileSync(join(state, 'wire.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.length > 0)
      .map((l) => JSON.parse(l) as { latched?: number; transport?: string; route?: string });
    let codexCode: number | null = null;
    try {
      codexCode = Number(readFileSync(codeFile, 'utf8'));
    } catch {
      codexCode = null;
    }
    return {
      rescueCode: result.code,
      codexCode,
      latched: wire.filter((w) => w.latched !== undefined).length,
      overWebSocket: wire.filter((w) => w.route !== undefined && w.transport === 'websocket').length,
      stderr: result.stderr.slice(-4000),
    };
  } finally {
    await upstream.close();
  }
}

async function main(): Promise<void> {
  const i = process.argv.indexOf('--root');
  const rootArg = i === -1 ? undefined : process.argv[i + 1];
  if (rootArg === undefined) throw new Error('usage: exit-codex-scenario.ts --root <empty dir>');
  const relaunched = reexecInNetns();
  if (relaunched !== undefined) process.exit(await relaunched);
  if (!isInNetns()) process.exit(CANNOT_ISOLATE);
  const root = resolve(rootArg);
  const run = await runSession(root);
  writeFileSync(join(root, 'observations.json'), JSON.stringify({ run } satisfies ExitObservations, null, 2));
}

// Run only as a script; the test imports this file for its types.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) await main();
