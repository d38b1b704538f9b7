/**
 * The real-client scenario behind compact-codex.test.ts: the real Codex CLI compacting remotely
 * through `ctxshed rescue`, offline. Codex 0.171.0 compacts on its own when a reply's usage passes
 * `model_auto_compact_token_limit` (a config key of its binary), and against the built-in OpenAI
 * provider it does so with a streamed `POST /responses` whose last input item is
 * `{"type":"compaction_trigger"}`; the scripted Responses API answers it with one `compaction`
 * item (test/support/responses-compaction.ts), which Codex then sends back in every request.
 *
 *   node_modules/.bin/tsx test/real-client/compact-codex-scenario.ts --root /tmp/some-empty-dir
 *
 * One `codex exec` run (makeModel has its phases). Rescue epochs latch before the compaction and
 * after it. Same path of each request as rescue-codex-scenario.ts.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ReceivedRequest } from '../../src/scripted/received-request.js';
import { CLI_PATH } from '../support/cli-process.js';
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
import { CODEX_MODEL, codexEnv } from './codex-env.js';
import { SEQ_HEADER } from './recording-hop.js';
import { CANNOT_ISOLATE, type Exchange, writeWrapper } from './rescue-codex-scenario.js';
import { runToEnd } from './run-to-end.js';
import { linesOf } from './scratch-text.js';
import { startUpgradeHop } from './upgrade-hop.js';

const CLIENT_TIMEOUT_MS = 180_000;
const BYTES_PER_TOKEN = 4;
/** Rescue mode: epochs latch at 50% of a 60,000-token window, keeping the two newest outputs. */
export const COMPACT_RESCUE_FLAGS = ['--window', '60000', '--rescue-pct', '50', '--keep-recent', '2', '--min-bytes', '1024'];
/** Codex compacts once a reply's usage passes this many tokens (about 168 KB of body at 4 bytes a token). */
export const COMPACT_LIMIT = 42_000;
const FILE_BYTES = 12 * 1024;
export const COMPACT_PROMPT = 'Read the files, taking notes.';

export interface CompactObservations {
  readonly stateDir: string;
  readonly exits: Array<{ code: number | null; stderr: string }>;
  readonly exchanges: Exchange[];
  readonly strayUpstream: number;
}

/**
 * The scripted model, in three phases it tells apart by itself (a compaction takes the earlier
 * calls out of the transcript, so it counts its own steps):
 *   A  `cat f1.txt` .. `cat f5.txt` (12 KB each): rescue epochs latch;
 *   B  until Codex has compacted: a note of about 12 KB (an assistant message, which rescue does
 *      not stub) and `echo` (a tiny output), so the request grows past Codex's compaction limit;
 *   C  after the compaction: `cat s1.txt` .. `cat s5.txt` (1.5 KB each), then `cat g1.txt` ..
 *      `cat g4.txt` (12 KB each): an epoch latches on the outputs past the ordinals the epochs
 *      before the compaction froze (docs/openai.md, "Remote compaction", the known limit), then a text.
 */
function makeModel(): (req: ReceivedRequest) => OpenAiReply | undefined {
  let previous = 0;
  let step = 0;
  let after = -1;
  const call = (cmd: string, note?: string): object[] => [
    reasoningItem(`step ${step}`),
    ...(note === undefined ? [] : [messageItem(note)]),
    functionCall('exec_command', { cmd }),
  ];
  return (req) => {
    if (!isResponsesRequest(req)) return undefined;
    const input = Math.ceil(req.body.length / BYTES_PER_TOKEN);
    const usage = responsesUsage(input, Math.min(previous, input));
    previous = input;
    step += 1;
    if (after < 0 && req.body.includes('"type":"compaction"')) after = step;
    if (step <= 5) return { kind: 'response', output: call(`cat f${step}.txt`), usage };
    if (after < 0) return { kind: 'response', output: call(`echo step ${step}`, linesOf(`note ${step}`, NOTE_BYTES)), usage };
    const k = step - after + 1;
    if (k <= 5) return { kind: 'response', output: call(`cat s${k}.txt`), usage };
    if (k <= 9) return { kind: 'response', output: call(`cat g${k - 5}.txt`), usage };
    return { kind: 'response', output: [messageItem('Read them all.')], usage };
  };
}

const NOTE_BYTES = 12 * 1024;

async function main(): Promise<void> {
  const i = process.argv.indexOf('--root');
  const rootArg = i === -1 ? undefined : process.argv[i + 1];
  if (rootArg === undefined) throw new Error('usage: compact-codex-scenario.ts --root <empty dir>');
  const relaunched = reexecInNetns();
  if (relaunched !== undefined) process.exit(await relaunched);
  if (!isInNetns()) process.exit(CANNOT_ISOLATE);

  const root = resolve(rootArg);
  const [home, projectDir, stateDir, bodiesDir] = ['home', 'project', 'state', 'bodies'].map((d) => join(root, d)) as [string, string, string, string];
  const targetFile = join(root, 'proxy-url');
  for (const dir of [home, projectDir, bodiesDir]) mkdirSync(dir, { recursive: true });
  for (let n = 1; n <= 5; n++) writeFileSync(join(projectDir, `f${n}.txt`), linesOf(`f${n}`, FILE_BYTES));
  for (let n = 1; n <= 5; n++) writeFileSync(join(projectDir, `s${n}.txt`), linesOf(`s${n}`, 1536));
  for (let n = 1; n <= 4; n++) writeFileSync(join(projectDir, `g${n}.txt`), linesOf(`g${n}`, FILE_BYTES));

  const upstream = await startOpenAiUpstream(makeModel());
  const hop = await startUpgradeHop(() => /"(http:\/\/127\.0\.0\.1:\d+)"/.exec(readFileSync(targetFile, 'utf8'))?.[1] ?? 'http://127.0.0.1:9');
  const wrapper = writeWrapper(join(root, 'bin'), targetFile, hop.url);
  const codexArgs = [
    'exec',
    '--skip-git-repo-check',
    '--json',
    '-m',
    CODEX_MODEL,
    '-C',
    projectDir,
    '-c',
    `model_auto_compact_token_limit=${COMPACT_LIMIT}`,
    COMPACT_PROMPT,
  ];
  const exits: CompactObservations['exits'] = [];
  try {
    const rescueArgs = ['rescue', ...COMPACT_RESCUE_FLAGS, '--state', stateDir, '--upstream', upstream.baseUrl, '--', wrapper, ...codexArgs];
    const result = await runToEnd(process.execPath, [CLI_PATH, ...rescueArgs], projectDir, codexEnv(home), CLIENT_TIMEOUT_MS);
    exits.push({ code: result.code, stderr: result.stderr });
  } finally {
    await hop.close();
    await upstream.close();
  }

  const bySeq = new Map(upstream.requests.map((r) => [Number(r.headers[SEQ_HEADER]), r]));
  const exchanges: Exchange[] = hop.requests.map((req) => {
    const clientFile = `${String(req.index).padStart(3, '0')}-client.json`;
    writeFileSync(join(bodiesDir, clientFile), req.body);
    const got = bySeq.get(req.index);
    const upstreamFile = got === undefined ? undefined : `${String(req.index).padStart(3, '0')}-upstream.json`;
    if (got !== undefined && upstreamFile !== undefined) writeFileSync(join(bodiesDir, upstreamFile), got.body);
    return { run: 0, seq: req.index, method: req.method, path: req.path, clientFile, ...(upstreamFile === undefined ? {} : { upstreamFile }) };
  });
  const observations: CompactObservations = {
    stateDir,
    exits,
    exchanges,
    strayUpstream: upstream.requests.filter((r) => Number.isNaN(Number(r.headers[SEQ_HEADER]))).length,
  };
  writeFileSync(join(root, 'observations.json'), JSON.stringify(observations, null, 2));
}

// Run only as a script; the test imports this file for its types and constants.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) await main();
