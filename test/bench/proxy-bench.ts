/**
 * The proxy benchmark: for Claude Code-shaped conversations of about 0.3, 1 and 4 MB that grow by
 * one turn per request (as the client sends them: the breakpoint moves, a turn is added), JSON and
 * SSE responses, the latency each path adds over a direct connection to a local upstream,
 * measured interleaved in one run:
 *   - direct: client -> upstream
 *   - pipe:   client -> a bare node:http pass-through (no parsing: the floor) -> upstream
 *   - held pipe: the same pass-through, but it reads the whole body before it sends it on: the
 *     floor of any proxy that must see the body whole before it forwards (ctxshed names the
 *     conversation and may rewrite any byte, so it does)
 *   - ctxshed, no epoch: the real proxy; the conversation is named and the body passes through
 *   - ctxshed, epoch: the real proxy with an epoch latched for this conversation: each request is
 *     rewritten from the conversation's last rewrite (core/incremental-rewrite.ts)
 * Each round sends the next request of one of several conversations per size (in turn), so the
 * bodies stay near their size over the run; the table says what sizes were sent. The client runs in
 * a thread of its own (bench-client.ts), as an agent is a process of its own.
 * Goals (issue 26): with an epoch, ctxshed adds at most 1.25x what the pipe adds; without, 1.1x.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { engineSettingsOf } from '../../src/rescue/index.js';
import { conversationKey } from '../../src/core/conversation-key.js';
import { indexTranscript } from '../../src/core/messages/transcript-index.js';
import { planElision, POLICY_NAME, POLICY_VERSION, freezeBlock } from '../../src/core/plan-elision.js';
import { DEFAULT_MAX_REQUEST_BYTES } from '../../src/proxy/transport-settings.js';
import { startProxy } from '../../src/proxy/start-proxy.js';
import { CONVERSATION_FORMAT } from '../../src/state/conversation-record.js';
import { latchEpoch } from '../../src/state/latch-epoch.js';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { sha256Hex } from '../../src/state/sha256-hex.js';
import { ClaudeCodeConversation } from './claude-code-body.js';
import { formatTable, ms, quantile } from './measure.js';

const SIZES = [300_000, 1_000_000, 4_000_000];
/**
 * Conversations per size, sent in turn: enough that each grows by a few turns only over the run,
 * few enough that their memos (about 1.8x the body each) stay within the engine's memo cap.
 */
const CONVERSATIONS: Readonly<Record<number, number>> = { 300_000: 24, 1_000_000: 12, 4_000_000: 4 };
let seed = 100;
const SSE_EVENTS = 40;
/** The goals (issue 26), printed beside each ratio: what ctxshed may add as a multiple of what the bare pipe adds. */
const GOAL_X_PIPE = 1.1;
const GOAL_EPOCH_X_PIPE = 1.25;
/** The bench's servers keep idle sockets open this long, past any gap between two rounds (node's 5 s default is not). */
const KEEP_ALIVE_MS = 120_000;

/** When a response's first and last bytes arrived, in ms after the request started. */
export interface Timing {
  firstByte: number;
  lastByte: number;
  /**
   * Process CPU time the request took, ms. Client, pipe, proxy and upstream all run in this one
   * process, so it is the work of the whole path; unlike wall time, a busy machine barely moves it.
   */
  cpu: number;
}

/** The paths measured, in the order of `targetsOf`. */
const TARGETS = ['direct', 'pipe', 'ctxshed', 'ctxshed+epoch', 'direct(epoch body)', 'held pipe'] as const;
const [DIRECT, PIPE, CTXSHED, EPOCH, DIRECT_EPOCH, HELD] = [0, 1, 2, 3, 4, 5] as const;

/** Runs the proxy benchmark and prints its table. */
export async function runProxyBench(): Promise<void> {
  const upstream = await startUpstream();
  const pipe = await startBarePipe(upstream.port);
  const held = await startBarePipe(upstream.port, true);
  const stateDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ctxshed-bench-'));
  const state = await openStateDir(stateDir);
  const proxy = await startProxy(
    {
      transport: {
        upstream: new URL(`http://127.0.0.1:${upstream.port}`),
        maxRequestBytes: DEFAULT_MAX_REQUEST_BYTES,
        timeouts: { headersMs: 60_000, idleMs: 60_000 },
      },
      engine: engineSettingsOf({ threshold: 0.7, keepRecent: 6, minBytes: 1024 }),
    },
    state,
    0,
  );
  const client = await startBenchClient();
  console.log('proxy: latency added over a direct connection to a local upstream (median / p90, ms), interleaved');
  console.log(`(${os.availableParallelism()} CPUs, load average ${loadAverage()} at start)`);
  const rows: string[][] = [];
  const cpuRows: string[][] = [];
  try {
    for (const size of SIZES) {
      const count = CONVERSATIONS[size] ?? 4;
      const plain = Array.from({ length: count }, () => new GrowingConversation(size, seed++));
      const epoch = Array.from({ length: count }, () => new GrowingConversation(size, seed++));
      for (const c of epoch) await latchFor(state, c.first);
      for (const stream of [false, true]) {
        const ports = { upstream: upstream.port, pipe: pipe.port, held: held.port, proxy: proxy.port };
        const { samples, sent } = await measureSize({ size, count, stream, plain, epoch, ports, client });
        rows.push(...wallRows(size, stream, samples, sent));
        cpuRows.push(cpuRow(size, stream, samples));
      }
    }
    const memos = proxy.engine.memoUsage();
    console.log(`rewrite memos the proxy holds at the end: ${memos.memos} (${(memos.bytes / 1e6).toFixed(1)} MB)`);
  } finally {
    await client.close();
    await proxy.close();
    pipe.server.close();
    held.server.close();
    upstream.server.close();
    await fs.rm(stateDir, { recursive: true, force: true });
  }
  const heads = ['+ctxshed', 'x pipe', 'goal', '+ctxshed epoch', 'epoch x pipe', 'goal', '+held pipe', 'x held', 'epoch x held'];
  console.log(formatTable(['body (sent)', 'response', 'direct', '+pipe', ...heads], rows));
  console.log('\nthe same requests by process CPU time (median ms; client, pipes, proxy and upstream share this process)');
  console.log(formatTable(['body', 'response', 'direct', '+pipe', ...heads], cpuRows));
  console.log(
    `goals: without an epoch ctxshed adds at most ${GOAL_X_PIPE}x what the bare pipe adds, with one ${GOAL_EPOCH_X_PIPE}x; a ratio over its goal is marked *`,
  );
  console.log('held pipe: the bare pipe reading the whole body before it sends it on; x held: what ctxshed adds over what it adds');
  console.log(
    `each round sends the next request (one more turn) of one of ${Object.values(CONVERSATIONS).join('/')} conversations per size; sse: ${SSE_EVENTS} events per response; load average ${loadAverage()} at the end`,
  );
}

interface SizeRun {
  readonly size: number;
  readonly count: number;
  readonly stream: boolean;
  readonly plain: readonly GrowingConversation[];
  readonly epoch: readonly GrowingConversation[];
  readonly ports: { readonly upstream: number; readonly pipe: number; readonly held: number; readonly proxy: number };
  readonly client: BenchClient;
}

/** The rounds of one size and response kind: every target once a round, in a rotating order. */
async function measureSize(run: SizeRun): Promise<{ samples: Timing[][]; sent: number[] }> {
  const { size, count, stream, ports } = run;
  const bodyOf = (b: Buffer): Buffer => (stream ? b : Buffer.from(b.toString('utf8').replace(/"stream":true}$/, '"stream":false}')));
  const rounds = size >= 4_000_000 ? 25 : 60;
  // Every conversation's first request (a rewrite from scratch: no memo yet) falls in the warm-up.
  const warmup = stream ? 5 : Math.max(5, count);
  const samples = TARGETS.map(() => [] as Timing[]);
  const sent: number[] = [];
  for (let round = -warmup; round < rounds; round++) {
    const c = (round + warmup) % count;
    const plainBody = bodyOf(run.plain[c]!.next());
    const epochBody = bodyOf(run.epoch[c]!.next());
    if (round >= 0) sent.push(plainBody.length, epochBody.length);
    const targets = [
      { port: ports.upstream, body: plainBody },
      { port: ports.pipe, body: plainBody },
      { port: ports.proxy, body: plainBody },
      { port: ports.proxy, body: epochBody },
      { port: ports.upstream, body: epochBody },
      { port: ports.held, body: plainBody },
    ];
    for (let k = 0; k < targets.length; k++) {
      const t = (k + Math.max(round, 0)) % targets.length;
      const target = targets[t]!;
      const timing = await run.client.post(target.port, target.body);
      if (round >= 0) samples[t]!.push(timing);
    }
  }
  return { samples, sent };
}

function statOf(samples: readonly Timing[][], t: number, field: keyof Timing, q: number): number {
  return quantile(
    samples[t]!.map((s) => s[field]).sort((a, b) => a - b),
    q,
  );
}

/** The wall-time rows of one size and response kind: JSON's last byte, SSE's first and last. */
function wallRows(size: number, stream: boolean, samples: readonly Timing[][], sent: readonly number[]): string[][] {
  const stat = (t: number, field: keyof Timing, q: number): number => statOf(samples, t, field, q);
  const sorted = [...sent].sort((a, b) => a - b);
  return (stream ? (['firstByte', 'lastByte'] as const) : (['lastByte'] as const)).map((field) => {
    const added = (t: number, base: number): string =>
      `${ms(stat(t, field, 0.5) - stat(base, field, 0.5))} / ${ms(stat(t, field, 0.9) - stat(base, field, 0.9))}`;
    const pipeAdded = stat(PIPE, field, 0.5) - stat(DIRECT, field, 0.5);
    const ctxAdded = stat(CTXSHED, field, 0.5) - stat(DIRECT, field, 0.5);
    const epochAdded = stat(EPOCH, field, 0.5) - stat(DIRECT_EPOCH, field, 0.5);
    const heldAdded = stat(HELD, field, 0.5) - stat(DIRECT, field, 0.5);
    return [
      `${mb(size)} (${mb(sorted[0]!)}-${mb(sorted.at(-1)!)})`,
      stream ? `sse ${field === 'firstByte' ? 'first byte' : 'last byte'}` : 'json',
      ms(stat(DIRECT, field, 0.5)),
      added(PIPE, DIRECT),
      added(CTXSHED, DIRECT),
      ratio(ctxAdded / pipeAdded, GOAL_X_PIPE),
      goal(GOAL_X_PIPE),
      added(EPOCH, DIRECT_EPOCH),
      ratio(epochAdded / pipeAdded, GOAL_EPOCH_X_PIPE),
      goal(GOAL_EPOCH_X_PIPE),
      added(HELD, DIRECT),
      (ctxAdded / heldAdded).toFixed(2),
      (epochAdded / heldAdded).toFixed(2),
    ];
  });
}

/** The CPU row of one size and response kind. */
function cpuRow(size: number, stream: boolean, samples: readonly Timing[][]): string[] {
  const stat = (t: number): number => statOf(samples, t, 'cpu', 0.5);
  const pipeCpu = stat(PIPE) - stat(DIRECT);
  const ctxCpu = stat(CTXSHED) - stat(DIRECT);
  const epochCpu = stat(EPOCH) - stat(DIRECT_EPOCH);
  const heldCpu = stat(HELD) - stat(DIRECT);
  return [
    mb(size),
    stream ? 'sse' : 'json',
    ms(stat(DIRECT)),
    ms(pipeCpu),
    ms(ctxCpu),
    ratio(ctxCpu / pipeCpu, GOAL_X_PIPE),
    goal(GOAL_X_PIPE),
    ms(epochCpu),
    ratio(epochCpu / pipeCpu, GOAL_EPOCH_X_PIPE),
    goal(GOAL_EPOCH_X_PIPE),
    ms(heldCpu),
    (ctxCpu / heldCpu).toFixed(2),
    (epochCpu / heldCpu).toFixed(2),
  ];
}

/** A ratio to the pipe, marked `*` when it misses its goal. */
function ratio(value: number, goalValue: number): string {
  return `${value.toFixed(2)}${value > goalValue ? '*' : ''}`;
}

function goal(value: number): string {
  return `<= ${value.toFixed(2)}`;
}

function loadAverage(): string {
  return os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
}

/** A conversation whose first request is known before it is sent (to latch an epoch on it). */
export class GrowingConversation {
  readonly first: Buffer;
  readonly #conversation: ClaudeCodeConversation;
  #sent = 0;

  constructor(size: number, seed: number) {
    this.#conversation = new ClaudeCodeConversation({ targetBytes: size, seed });
    this.first = this.#conversation.next();
  }

  /** The next request: the first, then one turn more each time. */
  next(): Buffer {
    return this.#sent++ === 0 ? this.first : this.#conversation.next();
  }
}

function mb(bytes: number): string {
  return `${(bytes / 1e6).toFixed(bytes < 1e6 ? 2 : 1)} MB`;
}

/** Latches one epoch for the body's conversation, as the proxy would have. */
export async function latchFor(state: Awaited<ReturnType<typeof openStateDir>>, body: Buffer): Promise<void> {
  const indexed = indexTranscript(body);
  if (indexed.kind !== 'indexed') throw new Error('bench body does not index');
  const key = conversationKey(body, indexed.index, undefined, sha256Hex)!;
  const plan = planElision(body, indexed.index, { keepRecent: 6, minBytes: 1024 }, sha256Hex);
  await latchEpoch(state, key, () => ({
    record: {
      format: CONVERSATION_FORMAT,
      key,
      agentId: null,
      firstPrompt: 'bench',
      model: 'bench',
      createdAt: new Date().toISOString(),
      epochs: [
        {
          n: 1,
          latchedAt: new Date().toISOString(),
          reason: { fullness: 0.7, threshold: 0.7, window: 200_000, contextTokens: 140_000 },
          policy: { name: POLICY_NAME, version: POLICY_VERSION, keepRecent: 6, minBytes: 1024 },
          kind: 'tool_results',
          items: { tool_results: plan.map(freezeBlock) },
        },
      ],
    },
    originals: plan.flatMap((b) => [
      { folder: 'elided', sha256: b.sha256, bytes: b.text, ext: 'txt' as const },
      ...(b.raw === undefined || b.rawSha256 === undefined ? [] : [{ folder: 'elided', sha256: b.rawSha256, bytes: b.raw, ext: 'json' as const }]),
    ]),
  }));
}

/** A local upstream: reads the whole body, answers JSON or SSE with usage. */
export async function startUpstream(): Promise<{ server: http.Server; port: number }> {
  const json = Buffer.from(
    JSON.stringify({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: 'ok' }],
      usage: { input_tokens: 10, cache_read_input_tokens: 1000, cache_creation_input_tokens: 0, output_tokens: 5 },
    }),
  );
  const events: string[] = [
    'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":10,"cache_read_input_tokens":1000,"cache_creation_input_tokens":0,"output_tokens":1}}}\n\n',
  ];
  for (let i = 0; i < SSE_EVENTS - 2; i++)
    events.push(
      `event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"chunk ${i} of the answer"}}\n\n`,
    );
  events.push('event: message_delta\ndata: {"type":"message_delta","usage":{"output_tokens":50}}\n\n');
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const stream = Buffer.concat(chunks).subarray(-20).includes('"stream":true');
      if (!stream) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': json.length });
        res.end(json);
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const e of events) res.write(e);
      res.end();
    });
  });
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/**
 * The floor: a pass-through proxy of a dozen lines, no parsing, no buffering. `held`: the same, but
 * it reads the whole body first and sends it on in one write, as a proxy that must see it whole does.
 */
async function startBarePipe(upstreamPort: number, held = false): Promise<{ server: http.Server; port: number }> {
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => {
    const up = http.request({ host: '127.0.0.1', port: upstreamPort, method: req.method, path: req.url, headers: req.headers, agent }, (upRes) => {
      res.writeHead(upRes.statusCode ?? 502, upRes.headers);
      upRes.pipe(res);
    });
    up.on('error', () => res.destroy());
    if (!held) {
      req.pipe(up);
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => up.end(Buffer.concat(chunks)));
  });
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** The client thread (bench-client.ts): one request at a time, its timing back. */
export interface BenchClient {
  post(port: number, body: Buffer): Promise<Timing>;
  close(): Promise<void>;
}

/**
 * Starts the client thread. The CPU time of a request is the whole process's over it (every
 * thread's), as it was with the client in this thread; copying the body to the client is the same
 * for every path, so it falls out of what a path adds.
 */
export async function startBenchClient(): Promise<BenchClient> {
  const worker = new Worker(new URL('./bench-client.js', import.meta.url));
  await new Promise<void>((resolve, reject) => worker.once('online', resolve).once('error', reject));
  let next = 0;
  const waiting = new Map<number, { resolve: (t: Timing) => void; reject: (e: Error) => void }>();
  worker.on('message', (m: { id: number; timing?: Timing; error?: string }) => {
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    if (m.timing !== undefined) w?.resolve(m.timing);
    else w?.reject(new Error(m.error ?? 'the bench client failed'));
  });
  return {
    post: (port, body) =>
      new Promise<Timing>((resolve, reject) => {
        const id = next++;
        waiting.set(id, { resolve, reject });
        const c0 = process.cpuUsage();
        worker.postMessage({ id, port, body });
        waiting.set(id, {
          resolve: (timing) => {
            const c = process.cpuUsage(c0);
            resolve({ ...timing, cpu: (c.user + c.system) / 1000 });
          },
          reject,
        });
      }),
    close: async () => {
      await worker.terminate();
    },
  };
}

/** POSTs `body` to /v1/messages on `port`; the times to the first and last response byte, in ms. */
export function post(agent: http.Agent, port: number, body: Buffer): Promise<Timing> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    let firstByte = 0;
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/v1/messages?beta=true',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': body.length },
      },
      (res) => {
        res.on('data', () => {
          if (firstByte === 0) firstByte = performance.now() - t0;
        });
        res.on('end', () => {
          const c = process.cpuUsage(c0);
          resolve({ firstByte, lastByte: performance.now() - t0, cpu: (c.user + c.system) / 1000 });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
