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

  const dirs = scenarioDirs(resolve(rootArg));
  const { root, projectDir, stateDir, bodiesDir } = dirs;
  for (let n = 1; n <= 5; n++) writeFileSync(join(projectDir, `f${n}.txt`), linesOf(`f${n}`, FILE_BYTES));
  for (let n = 1; n <= 5; n++) writeFileSync(join(projectDir, `s${n}.txt`), linesOf(`s${n}`, 1536));
  for (let n = 1; n <= 4; n++) writeFileSync(join(projectDir, `g${n}.txt`), linesOf(`g${n}`, FILE_BYTES));

  const upstream = await startOpenAiUpstream(makeModel());
  const execFlags = ['--skip-git-repo-check', '--json', '-m', CODEX_MODEL, '-C', projectDir, '-c', `model_auto_compact_token_limit=${COMPACT_LIMIT}`];
  let runs: CodexRuns;
  try {
    runs = await runCodexPrompts({ dirs, upstreamUrl: upstream.baseUrl, rescueFlags: COMPACT_RESCUE_FLAGS, execFlags, prompts: [COMPACT_PROMPT] });
  } finally {
    await upstream.close();
  }
  const { exchanges, strayUpstream } = pairExchanges(runs, upstream.requests, bodiesDir);
  const observations: CompactObservations = { stateDir, exits: runs.exits, exchanges, strayUpstream };
  writeFileSync(join(root, 'observations.json'), JSON.stringify(observations, null, 2));
}

// Run only as a script; the test imports this file for its types and constants.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) await main();
