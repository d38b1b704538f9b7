/**
 * The answer to an upgrade request (start-proxy.ts): on a Responses path, from a client the proxy
 * serves, with a valid handshake, the WebSocket is accepted and served (serve-socket.ts); anything
 * else is answered, never dropped, and recorded with its closed reason (docs/reasons.md "Refused
 * requests"): 403 for a web page (a browser opens WebSockets to any origin, so the Origin check
 * matters here most), 400 for a broken handshake, and 426 for an upgrade on any other path.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { dialectOf, modelRouteOf } from '../../core/dialects/index.js';
import type { RefusalReason } from '../../core/refusal-reasons.js';
import { decideClientAccess } from '../client-guard.js';
import { headerLines } from '../header-lines.js';
import { hasOwnerRule } from '../owner-rule.js';
import type { ProxyDeps } from '../proxy-deps.js';
import { recordRefusal } from '../refuse-client.js';
import { checkUpgrade, switchingProtocols } from './handshake.js';
import { type OpenSocket, serveResponsesSocket } from './serve-socket.js';

/** The status line of each status the client guard refuses with. */
const REFUSED_LINE = { 400: [400, 'Bad Request'], 403: [403, 'Forbidden'], 421: [421, 'Misdirected Request'] } as const;

/** The status lines an upgrade is refused with, by reason. */
const REFUSED_STATUS: Readonly<Partial<Record<RefusalReason, readonly [number, string]>>> = {
  websocket_upgrade: [426, 'Upgrade Required'],
  websocket_handshake: [400, 'Bad Request'],
};

/** Answers the upgrade `req`; an accepted socket joins `open` until it closes. Never throws. */
export function answerUpgrade(deps: ProxyDeps, req: IncomingMessage, socket: Duplex, head: Buffer, open: Set<OpenSocket>): void {
  const started = performance.now();
  socket.on('error', () => undefined);
  const url = req.url ?? '/';
  // As for every request (handle-request.ts): under an owner rule the gateway may be named by any host.
  const access = decideClientAccess({
    host: req.headers.host,
    hostLines: headerLines('host', req.headers, req.rawHeaders),
    target: url,
    origin: req.headers.origin,
    fetchSite: headerOf(req.headers['sec-fetch-site']),
    anyHost: hasOwnerRule(deps.ownerRule),
  });
  if (access.kind === 'refused') {
    refuse(deps, req, socket, access.reason, started, REFUSED_LINE[access.status ?? 403]);
    return;
  }
  // Only a dialect whose WebSocket ctxshed serves (the Responses API's) is let in; any other
  // route, or any other path, keeps its 426.
  const route = modelRouteOf('POST', url);
  if (route === undefined || !dialectOf(route).supports.websocket) {
    refuse(deps, req, socket, 'websocket_upgrade', started);
    return;
  }
  const check = checkUpgrade(req.method, req.headers);
  if (check.kind === 'invalid') {
    refuse(deps, req, socket, 'websocket_handshake', started);
    return;
  }
  socket.write(switchingProtocols(check.accept));
  const served = serveResponsesSocket(deps, req, socket, head);
  open.add(served);
  socket.once('close', () => open.delete(served));
}

function refuse(deps: ProxyDeps, req: IncomingMessage, socket: Duplex, reason: RefusalReason, started: number, status?: readonly [number, string]): void {
  const [code, text] = status ?? REFUSED_STATUS[reason] ?? [400, 'Bad Request'];
  const answer = `HTTP/1.1 ${code} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`;
  socket.end(answer);
  void recordRefusal(deps, { method: req.method ?? 'GET', url: req.url ?? '/' }, { status: code, reason, responseBytes: Buffer.byteLength(answer), started });
}

function headerOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}
