/**
 * The drip-feed probe of issue 41 against a `ctxshed serve` process, with its real defaults:
 * five uploads declare 32,000,000 bytes, send 26,800,000 at once (the five hold 134,000,000 bytes,
 * just under the 128 MiB body budget), then a byte every 20 s; meanwhile an agent sends a request
 * of about 500 KB every 2 s. Prints each agent request's status, and when and how each drip-feed
 * was answered. Figures for docs/reliability.md, not a test threshold. Run:
 *
 *   npx tsx test/bench/drip-feed.ts [seconds=60] [cli=dist/src/cli/main.js]
 *
 * (`cli` another build's main.js: the same probe against it.)
 */
import { spawn } from 'node:child_process';
import net from 'node:net';
import { agentBody } from '../support/agent-body.js';
import { startMessagesApi } from '../../src/scripted/messages-api.js';
import { CLI_PATH } from '../support/cli-process.js';
import { tempStateDir } from '../support/test-proxy.js';

const seconds = Number(process.argv[2] ?? 60);
const cli = process.argv[3] ?? CLI_PATH;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function startServe(upstream: string, state: string): Promise<{ url: string; stop: () => void }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, 'serve', '--state', state, '--upstream', upstream], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString('utf8');
      const m = /ANTHROPIC_BASE_URL=(\S+)/.exec(out);
      if (m !== null) resolve({ url: m[1]!, stop: () => child.kill('SIGTERM') });
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${String(code)}`)));
  });
}

/** One drip-feed: its answer's status line and when it came (seconds after the start), once the proxy closes it. */
function dripFeed(port: number, started: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    let timer: NodeJS.Timeout | undefined;
    socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve(`${text.split('\r\n')[0] || '(closed, no answer)'} after ${((performance.now() - started) / 1000).toFixed(1)} s`);
    });
    socket.once('connect', () => {
      socket.write(`POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\ncontent-length: 32000000\r\n\r\n`);
      const chunk = Buffer.alloc(1_000_000, 0x20);
      for (let at = 0; at < 26_800_000; at += chunk.length) socket.write(chunk.subarray(0, Math.min(chunk.length, 26_800_000 - at)));
      timer = setInterval(() => socket.write(' '), 20_000);
    });
    setTimeout(() => socket.destroy(), (seconds + 5) * 1000).unref();
  });
}

const api = await startMessagesApi();
const served = await startServe(api.url, await tempStateDir('ctxshed-drip-'));
const port = Number(new URL(served.url).port);
const started = performance.now();
const feeds = Array.from({ length: 5 }, () => dripFeed(port, started));
await sleep(2000);
const body = agentBody();
const statuses: string[] = [];
while (performance.now() - started < seconds * 1000) {
  const res = await fetch(`${served.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'sk-ant-test-000', 'anthropic-version': '2023-06-01' },
    body,
  }).catch(() => undefined);
  await res?.arrayBuffer();
  statuses.push(`${((performance.now() - started) / 1000).toFixed(0)}s:${res?.status ?? 'error'}`);
  await sleep(2000);
}
console.log(`agent requests of ${body.length} bytes: ${statuses.join(' ')}`);
served.stop();
for (const [i, answer] of (await Promise.all(feeds)).entries()) console.log(`drip-feed ${i + 1}: ${answer}`);
await api.close();
