/**
 * Time to the first output token of a streamed Responses request through the proxy, with the
 * stream's head held (a request the proxy may rescue: docs/openai.md, "A streamed refusal") and
 * without (the same request with `previous_response_id`, which passes through unheld), and
 * straight to the upstream. The upstream sends `response.created` and `response.in_progress` at
 * once, then the first `response.output_text.delta` after DELAY_MS. Prints medians and ratios.
 *
 *   npx tsc -p tsconfig.json && node_modules/.bin/tsx test/bench/stream-head-bench.ts [runs] [delayMs]
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { startTestProxy, tempStateDir, testConfig } from '../support/test-proxy.js';

const RUNS = Number(process.argv[2] ?? 40);
const DELAY_MS = Number(process.argv[3] ?? 20);

const sse = (type: string, extra: Record<string, unknown> = {}): string => `event: ${type}\ndata: ${JSON.stringify({ type, ...extra })}\n\n`;

function startUpstream(): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sse('response.created', { response: { id: 'resp_1', status: 'in_progress' } }) + sse('response.in_progress', { response: { id: 'resp_1' } }));
      setTimeout(() => {
        res.write(sse('response.output_text.delta', { delta: 'Hello' }));
        const usage = { input_tokens: 100, input_tokens_details: { cached_tokens: 0 }, output_tokens: 1, total_tokens: 101 };
        res.end(sse('response.completed', { response: { id: 'resp_1', status: 'completed', usage } }));
      }, DELAY_MS);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Milliseconds from sending `body` to the first byte of the first output delta. */
function firstToken(port: number, path: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(
      { host: '127.0.0.1', port, path, method: 'POST', headers: { 'content-type': 'application/json', 'session-id': 'bench' } },
      (res) => {
        let seen = '';
        let done = false;
        res.on('data', (c: Buffer) => {
          seen += c.toString('utf8');
          if (!done && seen.includes('response.output_text.delta')) {
            done = true;
            resolve(performance.now() - started);
          }
        });
        res.on('end', () => (done ? undefined : reject(new Error('no delta'))));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function main(): Promise<void> {
  const upstream = await startUpstream();
  const upPort = (upstream.address() as AddressInfo).port;
  const proxy = await startTestProxy(await tempStateDir('ctxshed-stream-head-'), testConfig(`http://127.0.0.1:${upPort}`));
  const proxyPort = Number(new URL(proxy.url).port);
  const input = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }];
  const held = JSON.stringify({ model: 'gpt-test', stream: true, store: false, input });
  const unheld = JSON.stringify({ model: 'gpt-test', stream: true, store: false, previous_response_id: 'resp_0', input });
  const times = { held: [] as number[], unheld: [] as number[], direct: [] as number[] };
  for (let i = 0; i < RUNS; i++) {
    times.held.push(await firstToken(proxyPort, '/v1/responses', held));
    times.unheld.push(await firstToken(proxyPort, '/v1/responses', unheld));
    times.direct.push(await firstToken(upPort, '/v1/responses', held));
  }
  const m = { held: median(times.held), unheld: median(times.unheld), direct: median(times.direct) };
  console.log(`runs ${RUNS}, upstream delay before the first delta ${DELAY_MS} ms; median time to the first output token:`);
  console.log(`  through ctxshed, head held:   ${m.held.toFixed(2)} ms`);
  console.log(`  through ctxshed, not held:    ${m.unheld.toFixed(2)} ms`);
  console.log(`  straight to the upstream:     ${m.direct.toFixed(2)} ms`);
  console.log(`  held / not held: ${(m.held / m.unheld).toFixed(3)}; held / direct: ${(m.held / m.direct).toFixed(3)}`);
  await proxy.close();
  upstream.close();
}

await main();
