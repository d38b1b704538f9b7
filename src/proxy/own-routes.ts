/**
 * The proxy's own routes, under `/_ctxshed/`: answered here, never forwarded, never in the wire
 * log. The API has no path under that prefix, so it shadows none; anything under it that is not a
 * route gets a 404 in the API's error shape rather than going upstream. Only loopback clients that
 * name a loopback host get an answer (loopback.ts says why both).
 */
import { GATEWAY_RESTORE_PATH, GATEWAY_SPANS_PATH } from '../core/gateway-routes.js';
import { errorText } from '../errors.js';
import type { ServedMetrics } from '../metrics/metrics.js';
import { sendApiError } from './api-error.js';
import type { EdgeRequest } from './edge.js';
import type { DescribeHealth, HealthReport } from './health-route.js';
import { dropBody } from './read-body.js';
import { isLoopbackAddress, isLoopbackHost } from './loopback.js';
import type { Reply } from './reply.js';
import { answerGatewayRoute, type GatewayRouteDeps } from './restore-route.js';

/** The prefix of every path the proxy answers itself. */
export const OWN_PREFIX = '/_ctxshed/';
/** Prometheus text of the proxy's metrics (docs/metrics.md). */
export const METRICS_PATH = '/_ctxshed/metrics';
/** Whether the proxy serves, as JSON (health-route.ts). */
export const HEALTH_PATH = '/_ctxshed/health';

const OWN_ROOT = '/_ctxshed';
// RFC 9112 §3.2.2: a request-target may be in absolute form (scheme://authority/path).
const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * The path (no query) of a request-target that is one of the proxy's own, else undefined. The
 * common case, an API path, costs one `startsWith`.
 */
export function ownPathOf(target: string): string | undefined {
  let path: string;
  if (target.startsWith('/')) {
    if (!target.startsWith(OWN_ROOT)) return undefined;
    path = target;
  } else {
    // The absolute form is forwarded by its path (upstream-request.ts), so it is judged by it too.
    if (!ABSOLUTE_FORM.test(target)) return undefined;
    try {
      path = new URL(target).pathname;
    } catch {
      return undefined;
    }
  }
  const end = path.search(/[?#]/);
  const pathname = end < 0 ? path : path.slice(0, end);
  return pathname === OWN_ROOT || pathname.startsWith(OWN_PREFIX) ? pathname : undefined;
}

/** What a request for one of the proxy's own paths is owed. */
export type OwnAnswer =
  | { readonly kind: 'metrics' }
  | { readonly kind: 'health' }
  /** A restore route (restore-route.ts): the owner is checked there, by the same rule as model requests. */
  | { readonly kind: 'gateway'; readonly path: string }
  | { readonly kind: 'refused'; readonly status: 403 | 404; readonly type: 'permission_error' | 'not_found_error'; readonly message: string };

/** The facts of a request that decide its answer. */
export interface OwnRequest {
  readonly method: string | undefined;
  /** From `ownPathOf`. */
  readonly path: string;
  /** The socket's peer address. */
  readonly remoteAddress: string | undefined;
  readonly host: string | undefined;
  /** An owner rule is on: the restore routes answer any peer, each its own owner's state (owner-rule.ts). */
  readonly ownerRule?: boolean;
}

const GATEWAY_PATHS: ReadonlySet<string> = new Set([GATEWAY_RESTORE_PATH, GATEWAY_SPANS_PATH]);

/**
 * Decides the answer: who asks first (loopback peer, loopback Host), then what is asked. Under an
 * owner rule the restore routes are answered beyond loopback: their owner check stands in for it.
 */
export function decideOwnRoute(request: OwnRequest): OwnAnswer {
  if (request.ownerRule === true && request.method === 'GET' && GATEWAY_PATHS.has(request.path)) return { kind: 'gateway', path: request.path };
  if (!isLoopbackAddress(request.remoteAddress) || !isLoopbackHost(request.host)) {
    const message = `${OWN_PREFIX} answers only clients on this machine that name it by a loopback host (localhost, 127.0.0.1, [::1])`;
    return { kind: 'refused', status: 403, type: 'permission_error', message };
  }
  if (request.method === 'GET' && request.path === METRICS_PATH) return { kind: 'metrics' };
  if (request.method === 'GET' && request.path === HEALTH_PATH) return { kind: 'health' };
  if (request.method === 'GET' && GATEWAY_PATHS.has(request.path)) return { kind: 'gateway', path: request.path };
  const message = `${OWN_PREFIX} is the proxy's own and is never forwarded; it serves only GET ${METRICS_PATH}, GET ${HEALTH_PATH}, GET ${GATEWAY_RESTORE_PATH} and GET ${GATEWAY_SPANS_PATH}`;
  return { kind: 'refused', status: 404, type: 'not_found_error', message };
}

/** What the own routes answer from. */
export interface OwnRouteDeps extends GatewayRouteDeps {
  readonly metrics: ServedMetrics;
  /** The health report; absent, the route says only that the proxy serves. */
  readonly describeHealth?: DescribeHealth | undefined;
}

/** Answers a request for one of the proxy's own paths. Never rejects. */
export async function answerOwnRoute(req: EdgeRequest, res: Reply, path: string, deps: OwnRouteDeps): Promise<void> {
  // No own route takes a body: whatever came is read and dropped, never buffered.
  dropBody(req);
  const ownerRule = deps.ownerRule !== undefined && deps.ownerRule.kind !== 'none';
  const answer = decideOwnRoute({ method: req.method, path, remoteAddress: req.remoteAddress, host: req.headers.host, ownerRule });
  if (answer.kind === 'refused') {
    sendApiError(res, answer.status, answer.type, answer.message);
    return;
  }
  if (answer.kind === 'gateway') return answerGatewayRoute(req, res, answer.path, deps);
  let text: string;
  try {
    text = answer.kind === 'metrics' ? await deps.metrics.render() : JSON.stringify(await healthOf(deps));
  } catch (error) {
    sendApiError(res, 500, 'api_error', `cannot answer ${path}: ${errorText(error)}`);
    return;
  }
  const body = Buffer.from(text, 'utf8');
  const type = answer.kind === 'metrics' ? deps.metrics.contentType : 'application/json';
  res.answerBytes(200, { 'content-type': type, 'content-length': String(body.length), 'cache-control': 'no-store' }, body);
}

async function healthOf(deps: OwnRouteDeps): Promise<HealthReport | { readonly ok: true }> {
  return deps.describeHealth === undefined ? { ok: true } : await deps.describeHealth();
}
