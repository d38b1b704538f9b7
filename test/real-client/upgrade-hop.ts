/**
 * The recording hop for Codex (recording-hop.ts's job, plus one thing): it records every request
 * byte-exact and forwards it, and it passes a WebSocket upgrade through as raw bytes, so Codex sees
 * what is behind the hop answer its WebSocket try. A socket ctxshed accepts is tapped
 * (websocket-tap.ts): each `response.create` Codex sends on it is recorded among the requests as
 * the whole body it stands for, with `ws: true`; no header can ride on it, so the scenario pairs
 * those with the upstream's requests by order. The recording hop rides on the scripted Messages
 * API, which has no upgrade path.
 */
import { createServer, request, type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ReceivedRequest } from '../../src/scripted/received-request.js';
import { SEQ_HEADER } from './recording-hop.js';
import { WebSocketTap } from './websocket-tap.js';

/** Hop-by-hop headers (RFC 9110 §7.6.1): not forwarded. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'content-length']);

/** A request the hop saw: an HTTP one, or a WebSocket message (its whole body, the upgrade's headers). */
export interface HopRequest extends ReceivedRequest {
  readonly ws?: true;
}

export interface UpgradeHop {
  readonly url: string;
  /** Every HTTP request, `index` being the value of its SEQ_HEADER, and every WebSocket message made whole (`ws`). */
  readonly requests: HopRequest[];
  /** Every upgrade request, with the status line that came back, and the warm-ups sent on it. */
  readonly upgrades: Array<{ path: string; reply: string; warmups: number }>;
  close(): Promise<void>;
}

/** Starts the hop; `target()` says where to forward (`http://127.0.0.1:N`), asked at each request. */
export async function startUpgradeHop(target: () => string): Promise<UpgradeHop> {
  const requests: HopRequest[] = [];
  const upgrades: UpgradeHop['upgrades'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const received: ReceivedRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        body,
        index: requests.length,
      };
      requests.push(received);
      // Host names the hop's target, as a forwarding hop writes it: ctxshed refuses a Host that
      // names another port than its own (src/proxy/client-guard.ts). The client's own is recorded.
      const { host: _client, ...sent } = forwardable(req.headers);
      const headers: OutgoingHttpHeaders = { ...sent, [SEQ_HEADER]: String(received.index), 'content-length': String(body.length) };
      const out = request(new URL(received.path, target()), { method: received.method, headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, forwardable(up.headers));
        up.pipe(res);
      });
      out.on('error', () => res.destroy());
      out.end(body);
    });
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const seen = { path: req.url ?? '/', reply: '', warmups: 0 };
    upgrades.push(seen);
    const tap = new WebSocketTap((create) => {
      requests.push({ method: 'POST', path: seen.path, headers: req.headers, rawHeaders: req.rawHeaders, body: create.body, index: requests.length, ws: true });
    });
    let replyHead = Buffer.alloc(0);
    const to = new URL(target());
    const up = connect(Number(to.port), to.hostname, () => {
      const lines = [`${req.method ?? 'GET'} ${req.url ?? '/'} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      up.write(`${lines.join('\r\n')}\r\n\r\n`);
      up.write(head);
      tap.fromClient(head);
      socket.on('data', (d: Buffer) => {
        tap.fromClient(d);
        seen.warmups = tap.warmups.length;
        up.write(d);
      });
      socket.on('end', () => up.end());
    });
    up.on('data', (d: Buffer) => {
      socket.write(d);
      if (!seen.reply.startsWith('HTTP/1.1 101')) {
        // The answer's head first; what follows it, once it is a 101, is frames.
        replyHead = Buffer.concat([replyHead, d]);
        const end = replyHead.indexOf('\r\n\r\n');
        if (end === -1) return;
        seen.reply = replyHead.toString('latin1').split('\r\n')[0] ?? '';
        if (seen.reply.startsWith('HTTP/1.1 101')) tap.fromServer(replyHead.subarray(end + 4));
        return;
      }
      tap.fromServer(d);
    });
    up.on('end', () => socket.end());
    up.on('error', () => socket.destroy());
    socket.on('error', () => up.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    upgrades,
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
