/**
 * The proxy's per-request logic, callable without a socket, as one straight line: read the body,
 * prepare it (the epoch engine, src/rescue), forward it, hand the usage reading to the engine,
 * count it, write the wire record. A refusal as too long may be retried once (overflow-retry.ts).
 * docs/request-path.md walks through it. A request from a web page is refused before any of that
 * (client-guard.ts), and the proxy's own paths (`/_ctxshed/`, own-routes.ts) are answered before
 * any of it too; neither is ever forwarded.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dialectOfRoute, modelRouteOf } from '../core/model-route.js';
import { errorText } from '../errors.js';
import type { ServedMetrics } from '../metrics/metrics.js';
import type { EngineRequest, EpochEngine, Prepared } from '../rescue/index.js';
import { crashPoint } from '../state/crash-point.js';
import { buildWireRecord } from '../state/wire-record.js';
import type { UpstreamAgents } from './agents.js';
import { sendApiError } from './api-error.js';
import { decideClientAccess } from './client-guard.js';
import { countRequest } from './count-request.js';
import { forwardToUpstream, type ForwardArgs, type ForwardResult } from './forward.js';
import { forwardableHeaders } from './hop-by-hop.js';
import { answerHeld, OVERFLOW_HOLD_BACK, type FinalExchange } from './overflow-retry.js';
import { answerOwnRoute, ownPathOf } from './own-routes.js';
import { readBody } from './read-body.js';
import { refuseClient } from './refuse-client.js';
import type { StateHealth } from './state-health.js';
import type { TransportSettings } from './transport-settings.js';

/** What the handler is given; tests hand in small real ones. */
export interface ProxyDeps {
  readonly transport: TransportSettings;
  readonly engine: EpochEngine;
  readonly wire: { append(record: object): Promise<void> };
  readonly health: StateHealth;
  readonly agents: UpstreamAgents;
  readonly now: () => Date;
  /** What each request is counted into, and what `/_ctxshed/metrics` serves. */
  readonly metrics: ServedMetrics;
}

/** Handles one request end to end. Never rejects: every failure is answered or logged. */
export type ProxyHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** The handler for a proxy with these dependencies. */
export function createProxyHandler(deps: ProxyDeps): ProxyHandler {
  return async (req, res) => {
    try {
      const own = ownPathOf(req.url ?? '/');
      // Before anything else, on every route: a web page is never served (client-guard.ts).
      const access = decideClientAccess({ host: req.headers.host, origin: req.headers.origin, port: req.socket.localPort });
      if (access.kind === 'refused') await refuseClient(deps, req, res, access, own !== undefined);
      else await (own === undefined ? handle(deps, req, res) : answerOwnRoute(req, res, own, deps.metrics));
    } catch (error) {
      // Last resort: the proxy must never die on a request.
      sendApiError(res, 500, 'api_error', `internal error: ${errorText(error)}`);
      if (!res.writableEnded) res.destroy();
    }
  };
}

async function handle(deps: ProxyDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const started = performance.now();
  const { transport, engine, metrics } = deps;
  // 1. The body, whole: the engine reads the first message and may rewrite any byte after it.
  const body = await readBody(req, transport.maxRequestBytes);
  if (body === 'too_large') {
    res.setHeader('connection', 'close');
    sendApiError(res, 413, 'request_too_large', `the request body is over ${transport.maxRequestBytes} bytes`);
    req.destroy();
    metrics.requestDone(modelRouteOf(req.method, req.url ?? '/'), 413);
    return;
  }
  // 2. What to send: the body itself, or its rewrite by the conversation's epochs.
  const request: EngineRequest = { method: req.method ?? 'GET', target: req.url ?? '/', headers: req.headers, body };
  const prepareStarted = performance.now();
  const prepared = await engine.prepare(request);
  const preparedAt = performance.now();
  const prepareMs = preparedAt - started;
  // 3. Forward. forward.ts sets accept-encoding and content-length, once each (upstream-request.ts).
  if (prepared.rescued > 0) crashPoint('first-rewritten-in-flight');
  const bodyless = request.method === 'GET' || request.method === 'HEAD';
  const forward = (p: Prepared, holdBack: ForwardArgs['holdBack']): Promise<ForwardResult> => {
    const sent = bufferOf(p.body);
    return forwardToUpstream({
      upstream: transport.upstream,
      method: request.method,
      path: request.target,
      headers: forwardableHeaders(req.rawHeaders),
      body: bodyless && sent.length === 0 ? undefined : sent,
      clientRes: res,
      agents: deps.agents,
      timeouts: transport.timeouts,
      api: p.route === undefined ? undefined : dialectOfRoute(p.route).name,
      // 4. The reading, taken before the client sees the response end, so its next request meets it.
      onUsage: (usage, meta) => engine.observe(p, { status: meta.status, usage }),
      ...(holdBack === undefined ? {} : { holdBack }),
    });
  };
  // A refusal as too long is held back when the engine could rescue it (overflow-retry.ts).
  const first = await forward(prepared, engine.canRescueOverflow(prepared) ? OVERFLOW_HOLD_BACK : undefined);
  const final: FinalExchange =
    first.held === undefined
      ? { prepared, result: first, status: first.status, responseBytes: first.bytesOut }
      : await answerHeld({ engine, request, prepared, first: { ...first, held: first.held }, clientRes: res, forward });
  const { result } = final;
  const last = final.prepared;
  // 5. The counts, then the wire record, after the response: the client never waits for either.
  countRequest(metrics, last, { ...result, status: final.status }, (preparedAt - prepareStarted) / 1000, final.retry);
  const record = buildWireRecord({
    t: deps.now().toISOString(),
    method: request.method,
    target: request.target,
    route: last.route,
    key: last.key,
    agentId: last.agentId,
    window: last.window,
    bytesIn: body.length,
    bytesOut: last.body.length,
    rescued: last.rescued,
    bytesElided: last.bytesElided,
    epochs: last.epochs,
    latched: last.latched,
    // The first preparation weighed the latch; a retry that latched on overflow leaves no hold.
    hold: last.latched === undefined ? prepared.hold?.reason : undefined,
    reason: last.reason,
    skipped: last.skipped,
    rewritePath: last.rewritePath,
    refaults: last.refaults,
    retry: final.retry,
    thinkingRemoved: last.thinkingRemoved,
    thinkingSkipped: last.thinkingSkipped,
    thinkingDropped: result.thinkingDropped,
    status: final.status,
    responseBytes: final.responseBytes,
    usage: result.usage,
    ms: { total: performance.now() - started, prepare: prepareMs, headers: result.timings.headersMs },
    error: result.error?.code,
    streamError: result.streamError?.type,
    classifier: prepared.classifier,
  });
  // A write of the wire log working says nothing of a latch that failed in this same request,
  // nor of one that failed in a later request before this line's batch was written.
  const mark = deps.health.mark;
  await deps.wire.append(record).then(
    () => (prepared.stateFailed === true || last.stateFailed === true ? undefined : deps.health.succeeded(mark)),
    (error: unknown) => deps.health.failed(error),
  );
}

function bufferOf(body: Uint8Array): Buffer {
  return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}
