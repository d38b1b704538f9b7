/**
 * The real-client scenario behind shed-codex.test.ts: the real Codex CLI through
 * `ctxshed rescue --mode shed`, against the scripted OpenAI upstream on 127.0.0.1, offline, in
 * three `codex exec` runs of one thread (the second and third `exec resume` it, each a new ctxshed
 * process over the same state directory). The scripted model answers every step with a reasoning
 * item and a call, so the scripted API ties each reasoning item to its call by id and refuses a
 * request that sends one without the other (test/support/responses-validator.ts).
 *
 *   node_modules/.bin/tsx test/real-client/shed-codex-scenario.ts --root /tmp/some-empty-dir
 *
 * The runs (each file f<n>.txt holds one planted fact, shedFactOf(n), halfway through):
 *   1  "Read f1 to f5."                 `cat f1.txt` .. `cat f5.txt`, then a text
 *   2  "Read f6 to f10."                `cat f6.txt` .. `cat f10.txt`, then a text: shed epochs latch
 *   3  "Bring back every shed span."    for each span stub a request of the run shows, once (the path
 *                                       taken from the stub): `wc -l` of its `.md`, then `sed -n` pages
 *                                       of it (class ReadBack), then a text
 * Same path of each request as rescue-codex-scenario.ts: codex ──► upgrade hop ──► ctxshed ──► upstream.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ReceivedRequest } from '../../src/scripted/received-request.js';
import {
  functionCall,
  isResponsesRequest,
  messageItem,
  reasoningItem,
  responsesUsage,
  startOpenAiUpstream,
  type OpenAiReply,
} from '../support/responses-upstream.js';
import { isInNetns, reexecInNetns } from './client-env.js';
import { CODEX_MODEL } from './codex-env.js';
import { CANNOT_ISOLATE, type CodexRuns, type Exchange, pairExchanges, runCodexPrompts, scenarioDirs } from './codex-runs.js';
import { linesOf } from './scratch-text.js';

const _CLIENT_TIMEOUT_MS = 180_000;
const BYTES_PER_TOKEN = 4;
/** Shed mode, a window Codex's opening body fills to about a quarter, a threshold the first run crosses, a horizon for the gate. */
export const SHED_CODEX_FLAGS = ['--mode', 'shed', '--window', '60000', '--rescue-pct', '50', '--horizon', '100'];
const FILE_BYTES = 8 * 1024;
export const SHED_FILE_COUNT = 10;
export const SHED_PROMPTS = ['Read f1 to f5.', 'Read f6 to f10.', 'Bring back every shed span.'] as const;

/** The fact planted halfway through f<n>.txt. */
export function shedFactOf(n: number): string {
  return `FACT-f${n}: the courier code is ${createHash('sha256').update(`codex fact ${n}`).digest('hex').slice(0, 12)}.`;
}

export interface ShedObservations {
  readonly stateDir: string;
  readonly exits: Array<{ code: number | null; stderr: string }>;
  readonly threadId: string;
  readonly exchanges: Exchange[];
  /** The span files the model read back in the last run, in order. */
  readonly readBack: string[];
  readonly strayUpstream: number;
}

interface Item {
  readonly type?: string;
  readonly role?: string;
  readonly content?: unknown;
}

/** The span stubs' `.md` paths in a body the upstream got, in order, each once. */
export function spanMdPaths(body: Buffer): string[] {
  const paths = [...body.toString('utf8').matchAll(/read (\/[^\s"\\]+\/spans\/[0-9a-f]{64}\.md)/g)].map((m) => m[1]!);
  return [...new Set(paths)];
}

function positionOf(input: readonly Item[]): { run: number; outputs: number } {
  let run = -1;
  let from = 0;
  input.forEach((item, i) => {
    const at = SHED_PROMPTS.findIndex((p) => item.role === 'user' && JSON.stringify(item.content ?? '').includes(p));
    if (at >= 0) {
      run = at;
      from = i;
    }
  });
  return { run, outputs: input.slice(from).filter((i) => i.type === 'function_call_output').length };
}

/**
 * Run 3's reading, as a model pages a long file: `wc -l` of each span's rendering, then `sed -n`
 * pages of PAGE_LINES lines (Codex cuts a command's output past about 10,000 tokens, whatever
 * `max_output_tokens` asks; one span's rendering is more). Each command runs once the one before it
 * has its output; a span stub that shows up later (a later epoch) is read after the others.
 */
class ReadBack {
  readonly paths: string[] = [];
  readonly #commands: Array<{ cmd: string; countsLinesOf?: string }> = [];
  /** The files whose pages are queued. */
  readonly #paged = new Set<string>();

  /** The next command once `done` have outputs (the last of them `lastOutput`), or undefined: all read. */
  next(body: Buffer, done: number, lastOutput: string): string | undefined {
    const counted = this.#commands[done - 1]?.countsLinesOf;
    const lines = Number(/(\d+) \/\S+\.md/.exec(lastOutput)?.[1] ?? 0);
    // The pages of the file just counted come next, before any other file's count already queued.
    if (counted !== undefined && !this.#paged.has(counted)) {
      this.#paged.add(counted);
      const pages: Array<{ cmd: string }> = [];
      for (let from = 1; from <= lines; from += PAGE_LINES) pages.push({ cmd: `sed -n '${from},${from + PAGE_LINES - 1}p' ${counted}` });
      this.#commands.splice(done, 0, ...pages);
    }
    for (const path of spanMdPaths(body)) {
      if (this.paths.includes(path)) continue;
      this.paths.push(path);
      this.#commands.push({ cmd: `wc -l ${path}`, countsLinesOf: path });
    }
    return this.#commands[done]?.cmd;
  }
}

const PAGE_LINES = 250;

function makeModel(): { respond: (req: ReceivedRequest) => OpenAiReply | undefined; readBack: string[] } {
  const reading = new ReadBack();
  let previous = 0;
  const step = (cmd: string): object[] => [reasoningItem(`run ${cmd}`), functionCall('exec_command', { cmd })];
  const respond = (req: ReceivedRequest): OpenAiReply | undefined => {
    if (!isResponsesRequest(req)) return undefined;
    const input = Math.ceil(req.body.length / BYTES_PER_TOKEN);
    const usage = responsesUsage(input, Math.min(previous, input));
    previous = input;
    const items = (JSON.parse(req.body.toString('utf8')) as { input?: Item[] }).input ?? [];
    const { run, outputs } = positionOf(items);
    if (run === 0 || run === 1) {
      const n = run * 5 + outputs + 1;
      return { kind: 'response', output: outputs < 5 ? step(`cat f${n}.txt`) : [messageItem(`Read f${run * 5 + 1} to f${run * 5 + 5}.`)], usage };
    }
    if (run === 2) {
      const last = items.findLast((i) => i.type === 'function_call_output') as { output?: unknown } | undefined;
      const cmd = reading.next(req.body, outputs, String(last?.output ?? ''));
      return { kind: 'response', output: cmd === undefined ? [messageItem('Done.')] : step(cmd), usage };
    }
    return { kind: 'response', output: [messageItem('Done.')], usage };
  };
  return { respond, readBack: reading.paths };
}

async function main(): Promise<void> {
  const i = process.argv.indexOf('--root');
  const rootArg = i === -1 ? undefined : process.argv[i + 1];
  if (rootArg === undefined) throw new Error('usage: shed-codex-scenario.ts --root <empty dir>');
  const relaunched = reexecInNetns();
  if (relaunched !== undefined) process.exit(await relaunched);
  if (!isInNetns()) process.exit(CANNOT_ISOLATE);

  const dirs = scenarioDirs(resolve(rootArg));
  const { root, projectDir, stateDir, bodiesDir } = dirs;
  for (let n = 1; n <= SHED_FILE_COUNT; n++) {
    const half = linesOf(`f${n}`, FILE_BYTES / 2);
    writeFileSync(join(projectDir, `f${n}.txt`), `${half}${shedFactOf(n)}\n${half}`);
  }

  const model = makeModel();
  const upstream = await startOpenAiUpstream(model.respond);
  const execFlags = ['--skip-git-repo-check', '--json', '-m', CODEX_MODEL, '-C', projectDir];
  let runs: CodexRuns;
  try {
    runs = await runCodexPrompts({ dirs, upstreamUrl: upstream.baseUrl, rescueFlags: SHED_CODEX_FLAGS, execFlags, prompts: SHED_PROMPTS });
  } finally {
    await upstream.close();
  }
  const { exchanges, strayUpstream } = pairExchanges(runs, upstream.requests, bodiesDir);
  const observations: ShedObservations = { stateDir, exits: runs.exits, threadId: runs.threadId, exchanges, readBack: model.readBack, strayUpstream };
  writeFileSync(join(root, 'observations.json'), JSON.stringify(observations, null, 2));
}

// Run only as a script; the test imports this file for its types and constants.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) await main();
