/**
 * What the real-Codex scenarios (rescue, shed, compact) share: `codex exec` runs through
 * `ctxshed rescue`, one prompt a run (the first starts a thread, each next one resumes it, a new
 * ctxshed process over the same state directory), through the upgrade hop; then each request the
 * client sent paired with what the upstream got, both written under `<root>/bodies`.
 *
 *   codex ──► upgrade hop (client bytes) ──► ctxshed rescue ──► scripted upstream (bytes it forwarded)
 *
 * `rescue` gives Codex `-c openai_base_url="<proxy>"`; the `codex` it runs is a wrapper that hands
 * that URL to the hop and points the real Codex at the hop instead.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReceivedRequest } from '../../src/scripted/received-request.js';
import { CLI_PATH } from '../support/cli-process.js';
import { CODEX_BIN, codexEnv, codexTurnMetaOf, type CodexTurnMeta } from './codex-env.js';
import { SEQ_HEADER } from './recording-hop.js';
import { readBody } from './run-scenario.js';
import { runToEnd } from './run-to-end.js';
import { type HopRequest, startUpgradeHop } from './upgrade-hop.js';

/** Exit code when the network cannot be isolated: the test is skipped, not failed. */
export const CANNOT_ISOLATE = 3;
const CLIENT_TIMEOUT_MS = 180_000;

export interface Exchange {
  readonly run: number;
  readonly seq: number;
  readonly method: string;
  readonly path: string;
  readonly sessionId?: string;
  /** What Codex said it ran this turn's commands under (its x-codex-turn-metadata header). */
  readonly turn?: CodexTurnMeta;
  /** Files under `<root>/bodies`: what the client sent, and what the upstream got (absent if it never arrived). */
  readonly clientFile: string;
  readonly upstreamFile?: string;
  /** Sent as a `response.create` on the WebSocket (`clientFile` then holds the whole body it stands for). */
  readonly ws?: true;
}

/** A scenario's folders under its root. */
export interface ScenarioDirs {
  readonly root: string;
  readonly home: string;
  readonly projectDir: string;
  readonly stateDir: string;
  readonly bodiesDir: string;
}

/** Makes (and names) the folders a scenario writes under `root`. */
export function scenarioDirs(root: string): ScenarioDirs {
  const [home, projectDir, stateDir, bodiesDir] = ['home', 'project', 'state', 'bodies'].map((d) => join(root, d)) as [string, string, string, string];
  for (const dir of [home, projectDir, bodiesDir]) mkdirSync(dir, { recursive: true });
  return { root, home, projectDir, stateDir, bodiesDir };
}

/** What the runs need: the upstream (the caller's, closed by the caller), rescue's flags, and each run's arguments after `exec`. */
export interface CodexRunsInput {
  readonly dirs: ScenarioDirs;
  readonly upstreamUrl: string;
  readonly rescueFlags: readonly string[];
  /** `exec`'s flags, the same every run. */
  readonly execFlags: readonly string[];
  readonly prompts: readonly string[];
}

/** What the runs saw. */
export interface CodexRuns {
  readonly exits: Array<{ code: number | null; stderr: string }>;
  /** The thread the first run started ('' if it named none: the later runs did not happen). */
  readonly threadId: string;
  /** How many requests the hop had seen when each run ended. */
  readonly hopCount: number[];
  readonly hopRequests: HopRequest[];
  readonly upgrades: Array<{ path: string; reply: string; warmups: number }>;
}

/** Runs each prompt as a `codex exec` through `ctxshed rescue`, in turn. */
export async function runCodexPrompts(input: CodexRunsInput): Promise<CodexRuns> {
  const { dirs } = input;
  const targetFile = join(dirs.root, 'proxy-url');
  // The wrapper wrote rescue's `openai_base_url="http://127.0.0.1:<port>"` there.
  const hop = await startUpgradeHop(() => /"(http:\/\/127\.0\.0\.1:\d+)"/.exec(readFileSync(targetFile, 'utf8'))?.[1] ?? 'http://127.0.0.1:9');
  const wrapper = writeWrapper(join(dirs.root, 'bin'), targetFile, hop.url);
  const env = codexEnv(dirs.home);
  const exits: CodexRuns['exits'] = [];
  const hopCount: number[] = [];
  let threadId = '';
  try {
    for (const [run, prompt] of input.prompts.entries()) {
      const codexArgs = run === 0 ? ['exec', ...input.execFlags, prompt] : ['exec', ...input.execFlags, 'resume', threadId, prompt];
      const rescueArgs = ['rescue', ...input.rescueFlags, '--state', dirs.stateDir, '--upstream', input.upstreamUrl, '--', wrapper, ...codexArgs];
      const result = await runToEnd(process.execPath, [CLI_PATH, ...rescueArgs], dirs.projectDir, env, CLIENT_TIMEOUT_MS);
      exits.push({ code: result.code, stderr: result.stderr });
      hopCount.push(hop.requests.length);
      if (run === 0) {
        threadId = threadStartedIn(result.stdout);
        if (threadId === '') break;
      }
    }
  } finally {
    await hop.close();
  }
  return { exits, threadId, hopCount, hopRequests: hop.requests, upgrades: hop.upgrades };
}

/**
 * Pairs each request the client sent with the one the upstream got, writing both bodies. An HTTP
 * request carries the hop's sequence header; a WebSocket message's POST carries none, and the
 * upstream got those in the order Codex sent them. `strayUpstream`: WebSocket POSTs paired with no message.
 */
export function pairExchanges(runs: CodexRuns, upstream: readonly ReceivedRequest[], bodiesDir: string): { exchanges: Exchange[]; strayUpstream: number } {
  const bySeq = new Map(upstream.map((r) => [Number(r.headers[SEQ_HEADER]), r]));
  const overSocket = upstream.filter((r) => Number.isNaN(Number(r.headers[SEQ_HEADER])));
  let nextOverSocket = 0;
  const exchanges = runs.hopRequests.map((req): Exchange => {
    const name = String(req.index).padStart(3, '0');
    const clientFile = `${name}-client.json`;
    writeFileSync(join(bodiesDir, clientFile), req.body);
    const got = req.ws === true ? overSocket[nextOverSocket++] : bySeq.get(req.index);
    const upstreamFile = got === undefined ? undefined : `${name}-upstream.json`;
    if (got !== undefined && upstreamFile !== undefined) writeFileSync(join(bodiesDir, upstreamFile), got.body);
    const sessionId = req.headers['session-id'];
    return {
      run: runs.hopCount.findIndex((n) => req.index < n),
      seq: req.index,
      method: req.method,
      path: req.path,
      ...(typeof sessionId === 'string' ? { sessionId } : {}),
      turn: codexTurnMetaOf(req.headers),
      ...(req.ws === true ? { ws: true as const } : {}),
      clientFile,
      ...(upstreamFile === undefined ? {} : { upstreamFile }),
    };
  });
  return { exchanges, strayUpstream: overSocket.length - nextOverSocket };
}

/** The thread id of the `thread.started` event in `codex exec --json`'s output, or ''. */
function threadStartedIn(stdout: string): string {
  const started = stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { type?: string; thread_id?: string })
    .find((e) => e.type === 'thread.started');
  return started?.thread_id ?? '';
}

/** A `codex` for rescue to run: it hands rescue's base URL to the hop and points the real Codex at the hop. */
export function writeWrapper(binDir: string, targetFile: string, hopUrl: string): string {
  mkdirSync(binDir, { recursive: true });
  const file = join(binDir, 'codex');
  const script = [
    '#!/bin/sh',
    '# rescue put -c openai_base_url="<proxy>" first: keep it for the hop.',
    `printf '%s' "$2" > '${targetFile}'`,
    'shift 2',
    `exec '${CODEX_BIN}' -c 'openai_base_url="${hopUrl}"' "$@"`,
    '',
  ].join('\n');
  writeFileSync(file, script);
  chmodSync(file, 0o755);
  return file;
}

/** Each exchange with the bodies it names: what the client sent, and what the upstream got (empty if it never arrived). */
export function withBodies<E extends Exchange>(root: string, exchanges: readonly E[]): Array<E & { client: Buffer; upstream: Buffer }> {
  return exchanges.map((e) => ({
    ...e,
    client: readBody(root, e.clientFile),
    upstream: e.upstreamFile === undefined ? Buffer.alloc(0) : readBody(root, e.upstreamFile),
  }));
}

/** The wire log's model calls: not notes, not upgrades ctxshed refused (`refused`), not the warm-ups it answered itself. */
export function readModelCalls<T extends { route?: string; refused?: string; warmup?: true }>(stateDir: string): T[] {
  return readFileSync(join(stateDir, 'wire.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as T)
    .filter((l) => l.route !== undefined && l.refused === undefined && l.warmup === undefined);
}
