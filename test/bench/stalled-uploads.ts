/**
 * Memory of a `ctxshed serve` process through a burst of stalled uploads (issue 29: 40 stalled
 * 30 MB uploads took the proxy from 82 MiB to 1.28 GiB, and it kept that after the sockets closed).
 * Figures for docs/reliability.md, not a test threshold. Needs the built CLI. Run:
 *
 *   npx tsx test/bench/stalled-uploads.ts [uploads=40] [mib=30]
 *
 * Each upload declares `mib` MiB, sends all but its last byte, and stalls. Two bursts:
 * 1. the clients close their sockets once every upload has stalled;
 * 2. the clients wait for the proxy's answers (408 once a body is silent for the body idle timeout,
 *    60 s; 429 for those over the cap of bytes in flight).
 * Reports VmRSS (and VmHWM) of the serve process before, during and after each.
 */
import fs from 'node:fs/promises';
import net from 'node:net';
import { startMessagesApi } from '../../src/scripted/messages-api.js';
import { tempStateDir } from '../support/test-proxy.js';
import { serve } from '../reliability/serve-session.js';

const uploads = Number(process.argv[2] ?? 40);
const mib = Number(process.argv[3] ?? 30);
const size = mib * 1024 * 1024;

async function vm(pid: number): Promise<string> {
  const text = await fs.readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN);
  return `RSS ${Math.round(kib('VmRSS') / 1024)} MiB (peak ${Math.round(kib('VmHWM') / 1024)} MiB)`;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** One upload that stalls before its last byte; resolves with the socket once all but that byte is written, and its answer's status line. */
function stalledUpload(port: number): Promise<{ socket: net.Socket; answer: Promise<string> }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    const answer = new Promise<string>((done) => {
      socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
      socket.on('close', () => done(text.split('\r\n')[0] ?? '(nothing)'));
    });
    socket.on('error', () => undefined);
    socket.once('connect', () => {
      socket.write(`POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\ncontent-length: ${size}\r\n\r\n`);
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      let left = size - 1;
      const pump = (): void => {
        while (left > 0) {
          const n = Math.min(left, chunk.length);
          left -= n;
          if (!socket.write(chunk.subarray(0, n))) return void socket.once('drain', pump);
        }
        resolve({ socket, answer });
      };
      pump();
    });
    socket.once('error', reject);
  });
}

async function burst(port: number, pid: number, label: string, waitForAnswers: boolean): Promise<void> {
  console.log(`${label}: before ${await vm(pid)}`);
  const started = await Promise.all(Array.from({ length: uploads }, () => stalledUpload(port)));
  await sleep(2000);
  console.log(`${label}: during, ${uploads} uploads of ${mib} MiB stalled: ${await vm(pid)}`);
  if (!waitForAnswers) for (const { socket } of started) socket.destroy();
  const answers = await Promise.all(started.map((s) => s.answer));
  const tally = new Map<string, number>();
  for (const a of answers) tally.set(a, (tally.get(a) ?? 0) + 1);
  console.log(`${label}: answers ${JSON.stringify(Object.fromEntries(tally))}`);
  await sleep(2000);
  console.log(`${label}: 2 s after ${await vm(pid)}`);
  await sleep(8000);
  console.log(`${label}: 10 s after ${await vm(pid)}`);
}

const upstream = await startMessagesApi();
const dir = await tempStateDir();
const served = await serve(['--upstream', upstream.url, '--state', dir, '--port', '0']);
try {
  const port = Number(new URL(served.url).port);
  const pid = served.child.pid!;
  await sleep(1000);
  await burst(port, pid, 'clients close', false);
  await burst(port, pid, 'proxy answers', true);
} finally {
  await served.stop();
  await upstream.close();
}
