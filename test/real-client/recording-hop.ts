/**
 * A pass-through HTTP hop on 127.0.0.1 that records every request byte-exact before forwarding it.
 * Put between the real client and ctxshed, it shows what the client sent in the same run, so the
 * bytes ctxshed forwards can be compared with the bytes it was given.
 */
import { createServer, request, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ReceivedRequest } from '../support/messages-upstream.js';

/** The header the hop adds so the upstream's copy of a request can be paired with the client's. */
export const SEQ_HEADER = 'x-ctxshed-test-seq';

/** Hop-by-hop headers (RFC 9110 §7.6.1): not forwarded. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'content-length']);

export interface RecordingHop {
  url: string;
  /** Every request, `index` being the value of its SEQ_HEADER. */
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

/**
 * Starts the hop; `target()` is asked at each request where to forward it (`http://127.0.0.1:N`),
 * so it can be learnt after the hop started. `firstSeq` numbers requests across several hops.
 */
export async function startRecordingHop(target: () => string, firstSeq: number): Promise<RecordingHop> {
  const requests: ReceivedRequest[] = [];
  let next = firstSeq;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const seq = next;
      next += 1;
      requests.push({ method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body, index: seq });
      const to = new URL(req.url ?? '/', target());
      const headers: OutgoingHttpHeaders = { ...forwardable(req.headers), [SEQ_HEADER]: String(seq), 'content-length': String(body.length) };
      const out = request(to, { method: req.method ?? 'GET', headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, forwardable(up.headers));
        up.pipe(res);
      });
      out.on('error', (error) => {
        res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: `recording hop: ${error.message}` } }));
      });
      out.end(body);
    });
  });
  // Same rule as the scripted upstream: a tunnel could leave loopback, so none is opened.
  server.on('connect', (_req, socket: Duplex) => {
    socket.on('error', () => undefined);
    socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function forwardable(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  }
  return out;
}
