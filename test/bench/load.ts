/**
 * A bounded load run on loopback (figures for docs/reliability.md, not a test threshold).
 * Needs the built CLI (`npx tsc -p tsconfig.json`). Run:
 *
 *   npx tsx test/bench/load.ts [conversations=16] [turns=30] [bigRequests=8]
 *
 * 1. Throughput and latency: `conversations` scripted sessions at once, `turns` each, through a
 *    `ctxshed serve` process, and the same sessions straight to the upstream. Reports requests per
 *    second through the proxy, p50/p99 latency both ways, the same for one session at a time, and
 *    the proxy's own prepare time (from its wire log; latching requests apart).
 * 2. Memory: `bigRequests` 4 MB requests in flight at once (the upstream holds each for 1.5 s);
 *    reports the serve process's peak resident memory (VmHWM) before and after.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { startMessagesApi } from '../../src/scripted/messages-api.js';
import { parseRequestBody, type ReceivedRequest } from '../../src/scripted/received-request.js';
import { ScriptedClient } from '../../src/scripted/client.js';
import { postRaw } from '../../src/scripted/post-raw.js';
import { tempStateDir } from '../support/test-proxy.js';
import { serve } from '../reliability/serve-session.js';

const conversations = Number(process.argv[2] ?? 16);
const turns = Number(process.argv[3] ?? 30);
const bigRequests = Number(process.argv[4] ?? 8);

function promptOf(req: ReceivedRequest): string {
  const body = parseRequestBody(req) as { messages?: Array<{ content: Array<{ text?: string }> }> } | undefined;
  return body?.messages?.[0]?.content?.[1]?.text ?? 'unknown';
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

function summary(ms: number[]): { n: number; p50: number; p99: number } {
  const s = [...ms].sort((x, y) => x - y);
  return { n: s.length, p50: round(percentile(s, 50)), p99: round(percentile(s, 99)) };
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

async function vm(pid: number): Promise<{ rssMiB: number; hwmMiB: number }> {
  const text = await fs.readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN);
  return { rssMiB: round(kib('VmRSS') / 1024), hwmMiB: round(kib('VmHWM') / 1024) };
}

/** Runs the sessions against `url`; returns each request's latency in ms and the wall time. */
async function sessions(url: string, tag: string, parallel = conversations): Promise<{ latencies: number[]; seconds: number }> {
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async (_, c) => {
      const client = new ScriptedClient(url, { prompt: `${tag} conversation ${c}` });
      for (let t = 0; t < turns; t++) {
        const t0 = performance.now();
        const res = await client.send();
        latencies.push(performance.now() - t0);
        if (res.status !== 200) throw new Error(`status ${res.status}`);
        await client.answer(JSON.parse(res.body.toString('utf8')) as { content: Array<Record<string, unknown>> });
      }
    }),
  );
  return { latencies, seconds: (performance.now() - started) / 1000 };
}

const upstream = await startMessagesApi({ conversationOf: promptOf });
const dir = await tempStateDir('ctxshed-load-bench-');
const served = await serve(['--state', dir, '--upstream', upstream.url, '--window', '20000']);
const pid = served.child.pid!;
const idle = await vm(pid);

// Warm-up, then the same load straight to the upstream and through the proxy.
await sessions(served.url, 'warm');
const direct = await sessions(upstream.url, 'direct');
const proxied = await sessions(served.url, 'proxied');
await new Promise((resolve) => setTimeout(resolve, 500));
const wire = (await fs.readFile(path.join(dir, 'wire.jsonl'), 'utf8'))
  .split('\n')
  .filter((l) => l.includes('"ms"'))
  .map((l) => JSON.parse(l) as { rescued?: number; latched?: number; ms: { total: number; prepare: number } })
  .slice(-proxied.latencies.length);
// One conversation at a time: the added latency without queueing behind other requests.
const seqDirect = await sessions(upstream.url, 'seq-direct', 1);
const seqProxied = await sessions(served.url, 'seq-proxied', 1);
const afterLoad = await vm(pid);
await served.stop();
await upstream.close();

// Memory: big requests in flight at once.
const slow = await startMessagesApi({
  respond: async () => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    return { kind: 'message', content: [{ type: 'text', text: 'ok' }], usage: { input_tokens: 1, output_tokens: 1 } };
  },
});
const memDir = await tempStateDir('ctxshed-mem-bench-');
const memServed = await serve(['--state', memDir, '--upstream', slow.url]);
const memPid = memServed.child.pid!;
const memIdle = await vm(memPid);
const big = new ScriptedClient(memServed.url, { toolResultBytes: () => 400 * 1024 });
for (let t = 0; t < 10; t++) await big.answer({ content: [{ type: 'tool_use', id: `toolu_${t}`, name: 'Read', input: {} }] });
const bigBody = big.body();
const bigStatuses = await Promise.all(Array.from({ length: bigRequests }, () => postRaw(memServed.url, '/v1/messages', bigBody).then((r) => r.status)));
const memPeak = await vm(memPid);
await memServed.stop();
await slow.close();

const proxiedRps = proxied.latencies.length / proxied.seconds;
const d = summary(direct.latencies);
const p = summary(proxied.latencies);
const sd = summary(seqDirect.latencies);
const sp = summary(seqProxied.latencies);
console.log(
  JSON.stringify(
    {
      load: { conversations, turns, requests: proxied.latencies.length, rewrittenRequests: wire.filter((w) => (w.rescued ?? 0) > 0).length },
      requestsPerSecond: { proxied: round(proxiedRps), direct: round(direct.latencies.length / direct.seconds) },
      latencyMs: { direct: d, proxied: p, addedP50: round(p.p50 - d.p50), addedP99: round(p.p99 - d.p99) },
      sequentialLatencyMs: { direct: sd, proxied: sp, addedP50: round(sp.p50 - sd.p50), addedP99: round(sp.p99 - sd.p99) },
      proxyPrepareMs: {
        all: summary(wire.map((w) => w.ms.prepare)),
        latching: summary(wire.filter((w) => w.latched !== undefined).map((w) => w.ms.prepare)),
        notLatching: summary(wire.filter((w) => w.latched === undefined).map((w) => w.ms.prepare)),
      },
      serveMemoryMiB: { idle, afterLoad },
      bigRequests: { count: bigRequests, bytesEach: bigBody.length, statuses: bigStatuses, idle: memIdle, peak: memPeak },
    },
    null,
    2,
  ),
);
