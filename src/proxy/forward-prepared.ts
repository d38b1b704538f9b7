/**
 * Forwards a prepared body (the engine's, src/rescue) for one request: the client's method,
 * target and forwardable headers, the engine's bytes. forward.ts sets accept-encoding and
 * content-length, once each (upstream-request.ts).
 */
import { dialectOf } from '../core/dialects/index.js';
import type { Prepared } from '../rescue/index.js';
import type { EdgeRequest } from './edge.js';
import { forwardToUpstream, type ForwardArgs, type ForwardResult } from './forward.js';
import { forwardableHeaders } from './hop-by-hop.js';
import type { ProxyDeps } from './proxy-deps.js';
import type { Reply } from './reply.js';

/** Sends one prepared body, holding back the status `holdBack` names, and resolves once the exchange is over. */
export type Forwarder = (prepared: Prepared, holdBack: ForwardArgs['holdBack']) => Promise<ForwardResult>;

/** The forwarder of `request`, answering `reply`: called once, and once more for an overflow's retry (overflow-retry.ts). */
export function forwarderFor(deps: ProxyDeps, request: EdgeRequest, reply: Reply): Forwarder {
  const { transport, engine } = deps;
  const bodyless = request.method === 'GET' || request.method === 'HEAD';
  return (p, holdBack) => {
    const sent = bufferOf(p.body);
    return forwardToUpstream({
      upstream: transport.upstream,
      method: request.method,
      path: request.url,
      headers: forwardableHeaders(request.rawHeaders ?? request.headers),
      body: bodyless && sent.length === 0 ? undefined : sent,
      reply,
      agents: deps.agents,
      timeouts: transport.timeouts,
      api: p.route === undefined ? undefined : dialectOf(p.route).name,
      // The reading, taken (and, on a shared store, written) before the client sees the response
      // end, so its next request meets it on any replica.
      onUsage: (usage, meta) => engine.observe(p, { status: meta.status, usage }),
      holdEndForUsage: engine.sharesReadings(),
      ...(holdBack === undefined ? {} : { holdBack }),
    });
  };
}

function bufferOf(body: Uint8Array): Buffer {
  return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}
