/**
 * The proxy's per-request logic as a function from a request to a response, callable without a
 * socket (test/proxy/handle-request.test.ts). A request from a web page is refused
 * (client-guard.ts) and the proxy's own paths (`/_ctxshed/`) are answered (own-routes.ts), neither
 * ever forwarded; every other request goes the request path, one straight line in `serveRequest`
 * (docs/request-path.md). handler.ts puts it on node's req/res.
 */
import { errorText } from '../errors.js';
import type { EngineRequest, Prepared } from '../rescue/index.js';
import { crashPoint } from '../state/crash-point.js';
import { sendApiError } from './api-error.js';
import { decideClientAccess } from './client-guard.js';
import { countRequest } from './count-request.js';
import type { EdgeRequest, EdgeResponse } from './edge.js';
import { forwarderFor } from './forward-prepared.js';
import { headerLines } from './header-lines.js';
import { answerHeld, overflowHoldBack, type FinalExchange } from './overflow-retry.js';
import { answerOwnRoute, ownPathOf } from './own-routes.js';
import { depsForOwner, requestOwner, withoutOwnerHeader } from './owner-request.js';
import { hasOwnerRule } from './owner-rule.js';
import type { ProxyDeps } from './proxy-deps.js';
import { readBody } from './read-body.js';
import { recordRequest } from './record-request.js';
import { refuseBody } from './refuse-body.js';
import { refuseClient } from './refuse-client.js';
import { cutBody, Reply, type EdgeHead } from './reply.js';
import { bodyPaceOf } from './transport-settings.js';
import { upstreamFailureLine } from './upstream-failure-line.js';

export type { ProxyDeps } from './proxy-deps.js';

/**
 * Handles one request: resolves with the response once its status line and headers are known,
 * its body a stream; `finished` settles when the request is counted and recorded. Never
 * rejects: every failure is answered (in the route's API error shape) or cuts the response off.
 */
export async function handleProxyRequest(deps: ProxyDeps, request: EdgeRequest): Promise<EdgeResponse> {
  const reply = new Reply(request.signal);
  const finished = routeRequest(deps, request, reply).catch((error: unknown) => {
    // Last resort: the proxy must never die on a request.
    if (!sendApiError(reply, 500, 'api_error', `internal error: ${errorText(error)}`)) reply.cut(`internal error: ${errorText(error)}`);
  });
  // A request can end with no answer given only when its client went away first.
  const head = await Promise.race([reply.head, finished.then(() => (reply.answered ? reply.head : cutOff()))]);
  return { ...head, finished };
}

async function routeRequest(deps: ProxyDeps, request: EdgeRequest, reply: Reply): Promise<void> {
  const own = ownPathOf(request.url);
  // Before anything else, on every route: a web page is never served (client-guard.ts).
  const access = decideClientAccess({
    host: request.headers.host,
    hostLines: headerLines('host', request.headers, request.rawHeaders),
    target: request.url,
    origin: request.headers.origin,
    fetchSite: headerOf(request.headers['sec-fetch-site']),
    anyHost: hasOwnerRule(deps.ownerRule),
  });
  if (access.kind === 'refused') await refuseClient(deps, request, reply, access, own !== undefined);
  else if (own !== undefined) await answerOwnRoute(request, reply, own, deps);
  else await serveOwnedRequest(deps, request, reply);
}

/** Under an owner rule, a request is served with its owner's state only, and one with no owner is refused (owner-rule.ts). */
async function serveOwnedRequest(deps: ProxyDeps, request: EdgeRequest, reply: Reply): Promise<void> {
  const owner = requestOwner(deps, request);
  if (owner.kind === 'missing') return refuseClient(deps, request, reply, { reason: 'no_owner', message: owner.message, status: 401 }, false);
  await serveRequest(await depsForOwner(deps, owner.ownerId), withoutOwnerHeader(deps, request), reply);
}

/** The request path: read, prepare, forward, answer a held refusal, count, record. */
async function serveRequest(deps: ProxyDeps, request: EdgeRequest, reply: Reply): Promise<void> {
  const { transport } = deps;
  const startedAt = performance.now();
  // 1. The body, whole: the engine reads the first message and may rewrite any byte after it.
  const pace = bodyPaceOf(transport);
  const body = await readBody(request, { max: transport.maxRequestBytes, ...pace, budget: deps.bodyBudget });
  if (typeof body === 'string') {
    const limits = { maxRequestBytes: transport.maxRequestBytes, ...pace, maxBytesInFlight: deps.bodyBudget?.max };
    return refuseBody(deps, request, reply, body, limits);
  }
  try {
    await serveBody(deps, request, reply, body, startedAt);
  } finally {
    deps.bodyBudget?.give(body.length);
  }
}

/** Steps 2 to 5 of the request path, once the body is read. */
async function serveBody(deps: ProxyDeps, request: EdgeRequest, reply: Reply, body: Buffer, startedAt: number): Promise<void> {
  const { engine } = deps;
  // 2. What to send: the body itself, or its rewrite by the conversation's epochs (src/rescue).
  const engineRequest: EngineRequest = { method: request.method, target: request.url, headers: request.headers, body };
  const prepareStartedAt = performance.now();
  const prepared = givenReason(await engine.prepare(engineRequest), request.passthrough);
  const preparedAt = performance.now();
  if (prepared.outcome === 'rewritten' && prepared.rescued > 0) crashPoint('first-rewritten-in-flight');
  // 3. Forward it, the usage reaching the engine before the client sees the end (forward-prepared.ts).
  const forward = forwarderFor(deps, request, reply);
  const first = await forward(prepared, engine.canRescueOverflow(prepared) ? overflowHoldBack(prepared) : undefined);
  // 4. A refusal as too long, held back, is rescued and sent once more, or relayed (overflow-retry.ts).
  const final: FinalExchange =
    first.held === undefined
      ? { prepared, result: first, status: first.status, responseBytes: first.bytesOut }
      : await answerHeld({ engine, request: engineRequest, prepared, first: { ...first, held: first.held }, reply, forward });
  // 5. The counts, then the wire record, after the response: the client never waits for either.
  countRequest(deps.metrics, final.prepared, { ...final.result, status: final.status }, (preparedAt - prepareStartedAt) / 1000, final.retry);
  const failure = upstreamFailureLine({
    method: request.method,
    target: request.url,
    status: final.status,
    result: final.result,
    ms: performance.now() - startedAt,
  });
  if (failure !== undefined) deps.log?.(failure);
  await recordRequest(deps, { request: engineRequest, prepared, final, startedAt, preparedAt, transport: request.transport });
}

/** A pass-through named by the request's maker (EdgeRequest.passthrough); a body the engine did change keeps its own facts. */
function givenReason(prepared: Prepared, given: EdgeRequest['passthrough']): Prepared {
  if (given === undefined || prepared.outcome === 'rewritten') return prepared;
  return { ...prepared, reason: given.reason, detail: given.detail };
}

/** The response of a request that ended with no answer: its client is gone, so whatever is sent is cut off. */
function cutOff(): EdgeHead {
  return { status: 502, statusMessage: undefined, headers: {}, body: cutBody('the request ended without a response') };
}

/** A header's value; a repeated one (node joins most, keeps a few as arrays) as its values joined. */
function headerOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}
