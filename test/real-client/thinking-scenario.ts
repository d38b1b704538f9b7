/**
 * The real-client scenario behind thinking-refusals.test.ts: Claude Code 2.1.328 on its default
 * model (claude-opus-5-5, which checks the prefix of every thinking block sent back) against the
 * scripted API with preserved thinking enforced, in print mode and its default permission mode.
 * Three runs of the same session, each on a fresh API:
 *
 *   control  the client alone, no proxy: the API should refuse nothing
 *   rescue   through `ctxshed rescue` with a small window, so that several epochs latch
 *   shed     through `ctxshed rescue --mode shed` with a low threshold, likewise
 *
 * Every answer of the API opens with a thinking block signed for its prefix, and the client sends
 * each back. The API's per-request record (`thinkingChecks`) says which requests it refused with
 * "The block is bound to a different conversation"; the client then resends without any thinking
 * block. Writes `<root>/observations.json`.
 *
 *   node_modules/.bin/tsx test/real-client/thinking-scenario.ts --root /tmp/some-empty-dir
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { textBlock, toolUse, type ReplyBlock } from '../../src/scripted/message.js';
import { startMessagesApi } from '../../src/scripted/messages-api.js';
import { CLI_PATH } from '../support/cli-process.js';
import { CLAUDE_BIN, CLAUDE_CLIENTS, clientEnv, isInNetns, reexecInNetns } from './client-env.js';
import { classify } from './rescue-scenario.js';
import { linesOf } from './scratch-text.js';

const CLIENT_TIMEOUT_MS = 150_000;
const FILE_BYTES = 16 * 1024;
const FILES_PER_TURN = 3;
export const PROMPTS = ['Read the first files.', 'Read the next files.', 'Read the next files.', 'Read the last files.'];
const FILE_COUNT = FILES_PER_TURN * PROMPTS.length;
/** Small windows, so that several epochs latch in four turns of 16 KB reads. */
export const RUN_FLAGS = {
  control: undefined,
  rescue: ['--window', '40000', '--rescue-pct', '50', '--keep-recent', '2', '--min-bytes', '1024'],
  shed: ['--mode', 'shed', '--window', '50000', '--rescue-pct', '50', '--horizon', '100'],
} as const;
export type RunName = keyof typeof RUN_FLAGS;

/** What one run saw. */
export interface ThinkingRun {
  readonly exit: number | null;
  readonly stderr: string;
  readonly results: number;
  /** Model calls of the main thread, and of those the ones the API refused for a thinking block. */
  readonly mainCalls: number;
  readonly refusals: number;
  /** Thinking blocks sent back over all the main thread's model calls. */
  readonly thinkingSent: number;
  readonly refusalMessages: string[];
  /** Epochs latched (wire records with `latched`); 0 for the control. */
  readonly epochs: number;
}

export interface ThinkingObservations {
  readonly isolated: boolean;
  readonly version: string;
  readonly model: string;
  readonly runs: Record<RunName, ThinkingRun>;
}

/** Reads the project's files, FILES_PER_TURN a turn, then ends the turn. */
function makeModel(projectDir: string): (req: Parameters<typeof classify>[0]) => { kind: 'message'; content: ReplyBlock[]; outputTokens?: number } | undefined {
  let file = 0;
  let inTurn = 0;
  return (req) => {
    const kind = classify(req);
    if (kind === 'count_tokens' || kind === 'other') return undefined;
    if (kind !== 'main') return { kind: 'message', content: [textBlock('{"title": "Scratch files"}')], outputTokens: 9 };
    if (inTurn === FILES_PER_TURN || file >= FILE_COUNT) {
      inTurn = 0;
      return { kind: 'message', content: [textBlock(`Read ${file} files so far.`)] };
    }
    inTurn += 1;
    file += 1;
    return { kind: 'message', content: [toolUse('Read', { file_path: join(projectDir, `f${file}.txt`) })] };
  };
}

/** One client process, one prompt a turn over stream-json; resolves when it exits. */
async function runSession(
  cmd: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string>,
): Promise<{ exit: number | null; stderr: string; results: number }> {
  const child = spawn(cmd, [...args], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  const timer = setTimeout(() => child.kill('SIGKILL'), CLIENT_TIMEOUT_MS);
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const exited = new Promise<number | null>((res) => child.on('close', (code) => res(code)));
  const send = (prompt: string): void => void child.stdin.write(`${JSON.stringify({ type: 'user', message: { role: 'user', content: prompt } })}\n`);
  let results = 0;
  send(PROMPTS[0]!);
  for await (const line of createInterface({ input: child.stdout })) {
    let msg: { type?: string };
    try {
      msg = JSON.parse(line) as typeof msg;
    } catch {
      continue;
    }
    if (msg.type !== 'result') continue;
    results += 1;
    const next = PROMPTS[results];
    if (next === undefined) child.stdin.end();
    else send(next);
  }
  const exit = await exited;
  clearTimeout(timer);
  return { exit, stderr: stderr.slice(-4000), results };
}

function epochsOf(stateDir: string): number {
  const wire = join(stateDir, 'wire.jsonl');
  if (!existsSync(wire)) return 0;
  return readFileSync(wire, 'utf8')
    .split('\n')
    .filter((l) => l.length > 0 && (JSON.parse(l) as { latched?: number }).latched !== undefined).length;
}

async function runOne(root: string, name: RunName, isolated: boolean): Promise<ThinkingRun> {
  const dir = join(root, name);
  const home = join(dir, 'home');
  const projectDir = join(dir, 'project');
  const stateDir = join(dir, 'state');
  for (const d of [home, projectDir]) mkdirSync(d, { recursive: true });
  for (let n = 1; n <= FILE_COUNT; n += 1) writeFileSync(join(projectDir, `f${n}.txt`), linesOf(`f${n}`, FILE_BYTES));
  // Preserved thinking enforced (the scripted API's default).
  const upstream = await startMessagesApi({
    conversationOf: (req) => `${classify(req)} ${String(req.headers['x-claude-code-agent-id'] ?? '')}`,
    respond: makeModel(projectDir),
  });
  try {
    const env = clientEnv(upstream.url, home, isolated);
    delete env['IS_SANDBOX'];
    const claudeArgs = ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', '--model', CLAUDE_CLIENTS.current.model];
    const flags = RUN_FLAGS[name];
    const session =
      flags === undefined
        ? await runSession(CLAUDE_BIN, claudeArgs, projectDir, env)
        : await runSession(
            process.execPath,
            [CLI_PATH, 'rescue', ...flags, '--state', stateDir, '--upstream', upstream.url, '--', CLAUDE_BIN, ...claudeArgs],
            projectDir,
            env,
          );
    const main = new Set(upstream.requests.filter((r) => classify(r) === 'main').map((r) => r.index));
    const checks = upstream.thinkingChecks.filter((c) => main.has(c.index) && c.endpoint === 'messages');
    return {
      ...session,
      mainCalls: main.size,
      refusals: checks.filter((c) => c.refused).length,
      thinkingSent: checks.reduce((n, c) => n + c.sent, 0),
      refusalMessages: [...new Set(checks.filter((c) => c.refused).map((c) => (c.message ?? '').slice(0, 200)))],
      epochs: epochsOf(stateDir),
    };
  } finally {
    await upstream.close();
  }
}

async function main(): Promise<void> {
  const i = process.argv.indexOf('--root');
  const rootArg = i === -1 ? undefined : process.argv[i + 1];
  if (rootArg === undefined) throw new Error('usage: thinking-scenario.ts --root <empty dir>');
  const relaunched = reexecInNetns();
  if (relaunched !== undefined) process.exit(await relaunched);
  const root = resolve(rootArg);
  const isolated = isInNetns();
  const runs = {} as Record<RunName, ThinkingRun>;
  for (const name of Object.keys(RUN_FLAGS) as RunName[]) runs[name] = await runOne(root, name, isolated);
  const observations: ThinkingObservations = { isolated, version: CLAUDE_CLIENTS.current.version, model: CLAUDE_CLIENTS.current.model, runs };
  writeFileSync(join(root, 'observations.json'), JSON.stringify(observations, null, 2));
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(fileURLToPath(import.meta.url))) await main();
