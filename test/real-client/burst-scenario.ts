/**
 * The real-client scenario behind burst-real-client.test.ts: Claude Code in print mode and its
 * DEFAULT permission mode (no bypass, no grant by hand) through `ctxshed rescue`, against a
 * scripted upstream on 127.0.0.1 that refuses a prompt over the window ctxshed is given, as the
 * real API refuses one over the model's. Writes what it saw to `--root` (observations.json and
 * every main-thread body as the upstream got it).
 *
 *   node_modules/.bin/tsx test/real-client/burst-scenario.ts --root /tmp/some-empty-dir [--client older] [--mode shed]
 *
 * One prompt. The scripted model reads f1.txt .. f8.txt, one a turn (12 KB each, a planted fact
 * halfway through), so epochs take the older Reads out; then, in a burst, it brings back what every
 * stub the request shows names, all in one turn (rescue mode: the restore tool, loaded with
 * ToolSearch first; shed mode: a Read of the span's `.md`, in the pages its stub names), Reads a small notes file, and reads back again any stub a later request shows
 * that it has not read back; then ends. What it brings back is well over the recent budget
 * (rescue: `--keep-recent 2`, two Reads; shed: 7% of the window, about one) and, with the rest,
 * under the window.
 */
import { runToEnd } from './run-to-end.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { textBlock, toolUse, type ReplyBlock } from '../../src/scripted/message.js';
import { startMessagesApi } from '../../src/scripted/messages-api.js';
import { parseRequestBody, type ReceivedRequest } from '../../src/scripted/received-request.js';
import { CLI_PATH } from '../support/cli-process.js';
import { CLAUDE_BIN, CLAUDE_CLIENTS, CLIENT, clientEnv, isInNetns, MODEL, reexecInNetns, type ClaudeClient } from './client-env.js';
import { mainThread, stubsIn, type SeenStub } from './grant-models.js';
import { classify } from './rescue-scenario.js';
import { factOf, spanStubsIn } from './shed-scenario.js';
import { linesOf } from './scratch-text.js';

const CLIENT_TIMEOUT_MS = 150_000;
/** The mode under test: `--mode shed` on the scenario's command line runs the shed burst. */
export type BurstMode = 'rescue' | 'shed';
export const BURST_FILES = 8;
const FILE_BYTES = 12 * 1024;
/** A small file the model reads after the burst. */
const NOTES = 'notes.txt';
const RESTORE_TOOL = 'mcp__ctxshed__restore';
/** Rounds of read-back after the first burst, for stubs a later epoch adds: a loop would hit this bound. */
const MAX_ROUNDS = 4;
/**
 * The window: the files, once all back, fit under it with the client's own prompt and tools
 * (2.1.332's first request is about 49 KB, 2.1.197's about 80 KB, at 4 bytes a scripted token),
 * and crossing 70% of it latches an epoch while the model reads them. 2.1.197's is 63,000: at
 * 60,000 its last restore had about 2,700 tokens of room, and restore gives no more than the room
 * (issue 39), so one fact stayed past the page this model reads (7 of 8, run after the merges).
 */
export function burstWindow(client: ClaudeClient): number {
  return client === CLAUDE_CLIENTS.older ? 63_000 : 52_000;
}
/**
 * Shed's window: 50% of it sheds the Reads before the recent window (7% of it, about one Read)
 * twice while the model reads, and everything back stays under 85% of it.
 */
const SHED_WINDOW = 70_000;
/** The flags of a run on `client` in `mode`. */
export function burstFlags(client: ClaudeClient, mode: BurstMode = 'rescue'): string[] {
  if (mode === 'shed') return ['--mode', 'shed', '--window', String(SHED_WINDOW), '--rescue-pct', '50', '--horizon', '100'];
  // Tool results only: this model restores every stub a request shows, and the deeper cut's stubs of
  // its own texts would be brought back too, past the window's room (e2e/deep-cut-session.test.ts
  // reads a part back through the real proxy).
  return ['--window', String(burstWindow(client)), '--rescue-pct', '70', '--keep-recent', '2', '--min-bytes', '1024', '--deep', 'none'];
}
/** The window of `burstFlags`. */
export function windowOf(flags: readonly string[]): number {
  return Number(flags[flags.indexOf('--window') + 1]);
}
const MODE: BurstMode = process.argv.includes('--mode') && process.argv[process.argv.indexOf('--mode') + 1] === 'shed' ? 'shed' : 'rescue';
const PROMPT = 'Read the scratch files one at a time, then bring back everything that was moved out of the context and check every fact.';

/** What the model asked for, by tool_use id. */
export interface BurstPlan {
  /** The project's files, read once each: id -> file name. */
  readonly fileReads: Record<string, string>;
  /** The read-backs: id -> the stub whose text it brought back, the round (0 = the burst), how, and the page a Read asked for. */
  readonly readBacks: Record<string, SeenStub & { round: number; via: 'restore' | 'read'; page?: readonly [number, number] }>;
  /** The ToolSearch call that loaded the restore tool. */
  loadId?: string;
  rounds: number;
  /** The small Read after the burst. */
  checkId?: string;
}

export interface BurstObservations {
  client: string;
  mode: BurstMode;
  isolated: boolean;
  stateDir: string;
  argv: string[];
  exit: number | null;
  stdout: string;
  stderr: string;
  plan: BurstPlan;
  /** Main-thread requests in order: the body file under `<root>/bodies` as the upstream got it. */
  main: Array<{ seq: number; file: string }>;
  /** Model calls the scripted API refused as over the window: ctxshed sent none. */
  overWindow: number;
  connectAttempts: number;
}

/** The names of the tools a request offers. */
function toolNames(req: ReceivedRequest): Set<string> {
  return new Set(((parseRequestBody(req) as { tools?: Array<{ name?: string }> } | undefined)?.tools ?? []).map((t) => t.name ?? ''));
}

/**
 * Reads the files one a turn; then reads back every stub not read back yet, all at once, round
 * after round, with one small Read after the first burst; then ends. In rescue mode the read-back
 * is the restore tool (loaded with ToolSearch first, as the client defers MCP tools), which only
 * the working set keeps from the next epoch; a Read where the client offers no restore tool.
 */
export function burstModel(
  projectDir: string,
  mode: BurstMode,
): { respond: (req: ReceivedRequest) => ReturnType<ReturnType<typeof mainThread>>; plan: BurstPlan } {
  const plan: BurstPlan = { fileReads: {}, readBacks: {}, rounds: 0 };
  const readBack = new Set<string>();
  let nextFile = 1;
  const respond = mainThread((req): ReplyBlock[] => {
    if (nextFile <= BURST_FILES) {
      const id = `toolu_01BurstFile${String(nextFile).padStart(2, '0')}00000000`;
      plan.fileReads[id] = `f${nextFile}.txt`;
      return [toolUse('Read', { file_path: join(projectDir, `f${nextFile++}.txt`) }, id)];
    }
    const tools = toolNames(req);
    if (mode === 'rescue' && plan.loadId === undefined && tools.has('ToolSearch') && !tools.has(RESTORE_TOOL)) {
      plan.loadId = 'toolu_01BurstLoadRestore000000';
      return [toolUse('ToolSearch', { query: `select:${RESTORE_TOOL}`, max_results: 5 }, plan.loadId)];
    }
    const fresh = (mode === 'shed' ? spanStubsOf(req) : stubsIn(req).map((s) => ({ ...s, pages: [] }))).filter((s) => !readBack.has(s.sha256));
    if (fresh.length === 0 || plan.rounds >= MAX_ROUNDS) {
      if (plan.checkId !== undefined) return [textBlock('Every fact is back.')];
      // One small call after the burst: the request that answers it is the first an epoch
      // decided on with the burst in it.
      plan.checkId = 'toolu_01BurstCheck0000000000';
      return [toolUse('Read', { file_path: join(projectDir, NOTES) }, plan.checkId)];
    }
    const round = plan.rounds++;
    const via = mode === 'rescue' && tools.has(RESTORE_TOOL) ? 'restore' : 'read';
    // Every stub, whole: a span's .md in the pages its stub names, so no Read stops short (issue 39).
    const wanted = fresh.flatMap(
      (stub): Array<{ stub: SeenStub; page: readonly [number, number] | undefined }> =>
        stub.pages.length === 0 ? [{ stub, page: undefined }] : stub.pages.map((page) => ({ stub, page })),
    );
    return wanted.map(({ stub, page }, i) => {
      readBack.add(stub.sha256);
      const id = `toolu_01BurstBack${round}x${String(i).padStart(2, '0')}000000`;
      const seen = { sha256: stub.sha256, path: stub.path };
      plan.readBacks[id] = { ...seen, round, via, ...(page === undefined ? {} : { page }) };
      if (via === 'restore') return toolUse(RESTORE_TOOL, { handle: stub.sha256 }, id);
      return toolUse('Read', { file_path: stub.path, ...(page === undefined ? {} : { offset: page[0], limit: page[1] }) }, id);
    });
  });
  return { respond, plan };
}

/** The span stubs of a shed request, each with the `.md` rendering it names (what a Read brings back) and the pages it names for Read. */
function spanStubsOf(req: ReceivedRequest): Array<SeenStub & { pages: Array<readonly [number, number]> }> {
  return spanStubsIn(req).flatMap((f) => {
    const head = f.text.split('\n', 1)[0] ?? '';
    const md = /or read (\/\S+\.md)[ ,]/.exec(head)?.[1];
    const pages = [...head.matchAll(/offset (\d+) limit (\d+)/g)].map((m) => [Number(m[1]), Number(m[2])] as const);
    return md === undefined ? [] : [{ sha256: f.sha256, path: md, pages }];
  });
}

async function main(): Promise<void> {
  const i = process.argv.indexOf('--root');
  const rootArg = i === -1 ? undefined : process.argv[i + 1];
  if (rootArg === undefined) throw new Error('usage: burst-scenario.ts --root <empty dir> [--client older] [--mode shed]');
  const relaunched = reexecInNetns();
  if (relaunched !== undefined) process.exit(await relaunched);
  const root = resolve(rootArg);
  const [home, projectDir, stateDir, bodiesDir] = ['home', 'project', 'state', 'bodies'].map((d) => join(root, d)) as [string, string, string, string];
  for (const dir of [home, projectDir, bodiesDir]) mkdirSync(dir, { recursive: true });
  for (let n = 1; n <= BURST_FILES; n += 1) {
    const lines = linesOf(`f${n}`, FILE_BYTES).split('\n');
    lines.splice(lines.length >> 1, 0, factOf(n));
    writeFileSync(join(projectDir, `f${n}.txt`), lines.join('\n'));
  }
  writeFileSync(join(projectDir, NOTES), 'Notes: every file holds one fact.\n');
  const model = burstModel(projectDir, MODE);
  const flags = burstFlags(CLIENT, MODE);
  // The scripted API refuses over ctxshed's window, as the real one refuses over the model's.
  const upstream = await startMessagesApi({ respond: model.respond, maxPromptTokens: windowOf(flags), conversationOf: (req) => classify(req) });
  const isolated = isInNetns();
  // A person's environment: no IS_SANDBOX, no permission flag of any kind.
  const env = clientEnv(upstream.url, home, isolated);
  delete env['IS_SANDBOX'];
  const argv = [CLI_PATH, 'rescue', ...flags, '--state', stateDir, '--upstream', upstream.url, '--', CLAUDE_BIN, '-p', PROMPT];
  argv.push('--model', MODEL, '--output-format', 'json');
  let run: Awaited<ReturnType<typeof runToEnd>>;
  try {
    run = await runToEnd(process.execPath, argv, projectDir, env, CLIENT_TIMEOUT_MS);
  } finally {
    await upstream.close();
  }
  const mainRequests = upstream.requests.filter((r) => classify(r) === 'main');
  const files = mainRequests.map((req) => {
    const file = `main-${req.index}.json`;
    writeFileSync(join(bodiesDir, file), req.body);
    return { seq: req.index, file };
  });
  const observations: BurstObservations = {
    client: CLIENT.version,
    mode: MODE,
    isolated,
    stateDir,
    argv,
    exit: run.code,
    stdout: run.stdout.slice(-8000),
    stderr: run.stderr.slice(-4000),
    plan: model.plan,
    main: files,
    overWindow: upstream.refusedForSize(),
    connectAttempts: upstream.requests.filter((r) => r.method === 'CONNECT').length,
  };
  writeFileSync(join(root, 'observations.json'), JSON.stringify(observations, null, 2));
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(fileURLToPath(import.meta.url))) await main();
