/**
 * The answer to a request client-guard.ts refuses: a 403 in the error shape of the API its path
 * speaks, and a wire record naming the reason. Nothing is forwarded and the epoch engine never
 * sees it; the body is read and dropped, never kept.
 */
import { modelRouteOf } from '../core/dialects/index.js';
import type { RefusalReason } from '../core/refusal-reasons.js';
import type { ServedMetrics } from '../metrics/metrics.js';
import { buildWireRecord } from '../state/wire-record.js';
import { errorShapeOf, sendErrorBody, shapedErrorBody, type ErrorSink } from './api-error.js';
import { appendWireRecord } from './append-wire-record.js';
import type { EdgeRequest } from './edge.js';
import { dropBody } from './read-body.js';
import type { StateHealth } from './state-health.js';

/** A refusal from `decideClientAccess`. */
export interface Refusal {
  readonly reason: RefusalReason;
  readonly message: string;
  /**
   * 401 for a request with no owner under an owner rule (owner-rule.ts); 400 or 421 for a Host or
   * request-target the proxy will not read (client-guard.ts); 403 otherwise.
   */
  readonly status?: 400 | 401 | 403 | 421;
}

/** What a refusal is counted and logged with: the handler's own dependencies. */
export interface RefusalDeps {
  readonly metrics: Pick<ServedMetrics, 'requestDone'>;
  readonly wire: { append(record: object): Promise<void> };
  readonly health: StateHealth;
  readonly now: () => Date;
}

/** The status a refused client gets: the request is understood, and will never be served. */
export const REFUSED_STATUS = 403;

/**
 * Answers `refusal`. A request for the proxy's own paths (`own`) is neither counted nor logged,
 * as those never are (own-routes.ts); any other is counted and gets a wire record. Never rejects.
 */
export async function refuseClient(deps: RefusalDeps, req: EdgeRequest, res: ErrorSink, refusal: Refusal, own: boolean): Promise<void> {
  const started = performance.now();
  dropBody(req);
  const target = req.url;
  const status = refusal.status ?? REFUSED_STATUS;
  const body = shapedErrorBody(errorShapeOf(target), {
    anthropicType: status === 401 ? 'authentication_error' : status === 403 ? 'permission_error' : 'invalid_request_error',
    openAiType: 'invalid_request_error',
    code: refusal.reason,
    message: refusal.message,
  });
  const sent = sendErrorBody(res, status, body);
  if (own) return;
  await recordRefusal(deps, req, { status, reason: refusal.reason, responseBytes: sent ? body.length : 0, started });
}

/** How a refused request ended, for its count and wire record. */
export interface RefusalOutcome {
  readonly status: number;
  readonly reason: RefusalReason;
  readonly responseBytes: number;
  /** `performance.now()` when it came in. */
  readonly started: number;
}

/** Counts a refused request and writes its wire record: nothing forwarded, its reason in `refused`. Never rejects. */
export async function recordRefusal(deps: RefusalDeps, req: Pick<EdgeRequest, 'method' | 'url'>, outcome: RefusalOutcome): Promise<void> {
  const target = req.url;
  const route = modelRouteOf(req.method, target);
  deps.metrics.requestDone(route, outcome.status);
  const record = buildWireRecord({
    t: deps.now().toISOString(),
    method: req.method,
    target,
    route,
    status: outcome.status,
    responseBytes: outcome.responseBytes,
    ms: { total: performance.now() - outcome.started, prepare: 0 },
    outcome: { kind: 'refused', refused: outcome.reason },
  });
  await appendWireRecord(deps, record, false);
}
