/**
 * Sends the request upstream over node:http or node:https with the proxy's agents (agents.ts),
 * retrying once on a fresh socket when a pooled one turns out stale. The response goes to
 * `onResponse`; a failure before it ends the exchange in the API's error shape.
 */
import http from 'node:http';
import type { ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import https from 'node:https';
import type { ForwardArgs } from './forward-types.js';
import type { UpstreamExchange } from './upstream-exchange.js';
import { classifyUpstreamError, isStaleSocketError } from './upstream-errors.js';
import { joinUpstreamPath, upstreamHeaders } from './upstream-request.js';

/** Opens the upstream request of `x` (attempt 0; 1 is the stale-socket retry). */
export function openUpstream(x: UpstreamExchange, onResponse: (res: IncomingMessage) => void, attempt = 0): void {
  let req: ClientRequest;
  try {
    req = requestFor(x.args);
  } catch (err) {
    x.fail(classifyUpstreamError(err, x.origin));
    return;
  }
  x.upstreamReq = req;
  req.setNoDelay(true);
  req.on('response', onResponse);
  req.on('error', (err) => {
    // After headers, a broken body shows up on the response's own events.
    if (x.done || x.responded || req !== x.upstreamReq) return;
    // A pooled keep-alive socket the server closed while idle fails on first use; the request
    // never reached the server, so one retry on a fresh socket is safe (Node's http docs,
    // `request.reusedSocket`).
    if (attempt === 0 && req.reusedSocket && isStaleSocketError(err)) {
      openUpstream(x, onResponse, 1);
      return;
    }
    x.fail(classifyUpstreamError(err, x.origin));
  });
  req.end(x.args.body);
}

function requestFor(args: ForwardArgs): ClientRequest {
  const upstream = args.upstream;
  const isHttps = upstream.protocol === 'https:';
  if (!isHttps && upstream.protocol !== 'http:') throw new Error(`unsupported protocol ${upstream.protocol}`);
  const options: RequestOptions = {
    protocol: upstream.protocol,
    hostname: upstream.hostname.replace(/^\[(.*)\]$/, '$1'), // IPv6 literal without brackets
    port: upstream.port === '' ? (isHttps ? 443 : 80) : Number(upstream.port),
    method: args.method,
    path: joinUpstreamPath(upstream, args.path),
    headers: upstreamHeaders(args.headers, args.body),
  };
  return isHttps ? https.request({ ...options, agent: args.agents.https }) : http.request({ ...options, agent: args.agents.http });
}
