/**
 * The proxy bench's client in a thread of its own (worker_threads), as a coding agent is a process
 * of its own: what a proxy does after it has written a response (its counts, its wire record)
 * then runs beside the client reading it, not before, so the latency measured is what a client
 * sees. proxy-bench.ts starts it with `startBenchClient`; each message is one request, answered
 * with its timing.
 */
import http from 'node:http';
import { parentPort } from 'node:worker_threads';
import { post } from './proxy-bench.js';

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
parentPort?.on('message', (ask: { readonly id: number; readonly port: number; readonly body: Uint8Array }) => {
  const body = Buffer.from(ask.body.buffer, ask.body.byteOffset, ask.body.byteLength);
  post(agent, ask.port, body).then(
    (timing) => parentPort?.postMessage({ id: ask.id, timing }),
    (error: unknown) => parentPort?.postMessage({ id: ask.id, error: String(error) }),
  );
});
