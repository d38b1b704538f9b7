/**
 * The proxy's per-request logic, callable without a socket: read the body, prepare it (rescue),
 * forward it, read the usage from a copy of the response, write the wire record.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { rewriteAcceptEncoding } from './accept-encoding.js';
import type { UpstreamAgents } from './agents.js';
import { sendApiError } from './api-error.js';
import { contextWindowFor } from './context-window.js';
import type { ConversationTable } from './conversation-table.js';
import type { FileAvailability } from './file-availability.js';
import { forwardToUpstream } from './forward.js';
import { forwardableHeaders } from './hop-by-hop.js';
import { modelRouteOf } from '../core/model-route.js';
import { prepareRequest, type PreparedRequest } from './prepare-request.js';
import type { ProxyConfig } from './proxy-config.js';
import { readBody } from './read-body.js';
import type { StateHealth } from './state-health.js';
import { crashPoint } from '../state/crash-point.js';
import type { Usage } from './usage-tap.js';
import type { WireRecord } from '../state/wire-record.js';

/** What the handler is given; tests hand in small real ones. */
export interface ProxyDeps {
  readonly config: ProxyConfig;
  readonly table: ConversationTable;
  readonly files: FileAvailability;
  readonly wire: { append(record: object): Promise<void> };
  readonly health: StateHealth;
  readonly agents: UpstreamAgents;
  readonly now: () => Date;
}

/** Handles one request end to end. Never rejects: every failure is answered or logged. */
export type ProxyHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** The handler for a proxy with these dependencies. */
export function createProxyHandler(deps: ProxyDeps): ProxyHandler {
  return async (req, res) => {
    try {
      await handle(deps, req, res);
    } catch (error) {
      // Last resort: the proxy must never die on a request.
      sendApiError(res, 500, 'api_error', `ctxshed: internal error: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.writableEnded) res.destroy();
    }
  };
}

async function handle(deps: ProxyDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const started = performance.now();
  const method = req.method ?? 'GET';
  const target = req.url ?? '/';
  const route = modelRouteOf(method, target);
  const body = await readBody(req, deps.config.maxRequestBytes);
  if (body === 'too_large') {
    res.setHeader('connection', 'close');
    sendApiError(res, 413, 'request_too_large', `ctxshed: the request body is over ${deps.config.maxRequestBytes} bytes`);
    req.destroy();
    return;
  }
  const window = contextWindowFor(deps.config.window, req.headers['anthropic-beta']);
  const agentId = headerValue(req.headers['x-claude-code-agent-id']);
  const sessionId = headerValue(req.headers['x-claude-code-session-id']);
  // A write of the wire log working says nothing of a latch that failed in this same request.
  let stateFailed = false;
  const onStateFailure = (error: unknown): void => {
    stateFailed = true;
    deps.health.failed(error);
  };
  const prepared = await prepare(deps, req, body, route, { agentId, sessionId, window }, onStateFailure);
  const prepareMs = performance.now() - started;
  const headers = forwardableHeaders(req.rawHeaders);
  if (hasHeader(headers, 'accept-encoding')) setHeader(headers, 'accept-encoding', rewriteAcceptEncoding(req.headers['accept-encoding']));
  const sent = Buffer.from(prepared.body.buffer, prepared.body.byteOffset, prepared.body.byteLength);
  if (prepared.rescued > 0) crashPoint('first-rewritten-in-flight');
  const result = await forwardToUpstream({
    upstream: deps.config.upstream,
    method,
    path: target,
    headers,
    body: method === 'GET' || method === 'HEAD' ? (sent.length > 0 ? sent : undefined) : sent,
    clientRes: res,
    agents: deps.agents,
    timeouts: deps.config.timeouts,
    // Called before the client sees the response end, so its next request meets this reading.
    onUsage: (reported, meta) => {
      if (route !== 'messages' || meta.status !== 200 || prepared.conversation === undefined) return;
      prepared.conversation.reading = {
        contextTokens: contextTokensOf(reported),
        window,
        epochsApplied: prepared.epochs,
        requestBytes: sent.length,
      };
    },
  });
  const usage = result.usage;
  const record = wireRecord(deps, { method, target, route, agentId, window, body, sent, prepared, result, usage, prepareMs, started });
  // After the response: the client never waits for the log.
  await deps.wire.append(record).then(
    () => (stateFailed ? undefined : deps.health.succeeded()),
    (error: unknown) => deps.health.failed(error),
  );
}

async function prepare(
  deps: ProxyDeps,
  req: IncomingMessage,
  body: Buffer,
  route: ReturnType<typeof modelRouteOf>,
  meta: { agentId: string | undefined; sessionId: string | undefined; window: number },
  onStateFailure: (error: unknown) => void,
): Promise<PreparedRequest> {
  const passthrough = (reason: PreparedRequest['reason'], detail: string): PreparedRequest => ({
    body, rescued: 0, epochs: 0, bytesElided: 0, ...(reason === undefined ? {} : { reason }), detail,
  });
  if (route === undefined) return passthrough('not_a_model_call', 'not a model call');
  const encoding = headerValue(req.headers['content-encoding']);
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') return passthrough('encoded_body', encoding);
  try {
    return await prepareRequest(
      {
        config: deps.config,
        table: deps.table,
        files: deps.files,
        now: () => deps.now().toISOString(),
        onStateFailure,
      },
      body,
      route,
      meta,
    );
  } catch (error) {
    return passthrough('internal_error', error instanceof Error ? error.message : String(error));
  }
}

function contextTokensOf(usage: Usage): number {
  return usage.inputTokens + usage.cacheCreationInputTokens + usage.cacheReadInputTokens;
}

interface RecordInput {
  method: string;
  target: string;
  route: ReturnType<typeof modelRouteOf>;
  agentId: string | undefined;
  window: number;
  body: Buffer;
  sent: Buffer;
  prepared: PreparedRequest;
  result: Awaited<ReturnType<typeof forwardToUpstream>>;
  usage: Usage | undefined;
  prepareMs: number;
  started: number;
}

function wireRecord(deps: ProxyDeps, r: RecordInput): WireRecord {
  const { prepared, result, usage } = r;
  const q = r.target.indexOf('?');
  const skipped: Record<string, number> = {};
  for (const s of prepared.skipped ?? []) skipped[s.reason] = (skipped[s.reason] ?? 0) + 1;
  const model = usage?.model;
  return {
    t: deps.now().toISOString(),
    method: r.method,
    path: q < 0 ? r.target : r.target.slice(0, q),
    route: r.route ?? null,
    key: prepared.key ?? null,
    ...(r.agentId === undefined ? {} : { agentId: r.agentId }),
    ...(model === undefined ? {} : { model }),
    status: result.status,
    bytesIn: r.body.length,
    bytesOut: r.sent.length,
    responseBytes: result.bytesOut,
    rescued: prepared.rescued,
    bytesElided: prepared.bytesElided,
    epochs: prepared.epochs,
    ...(prepared.latched === undefined ? {} : { latched: prepared.latched }),
    ...(prepared.reason === undefined ? {} : { reason: prepared.reason }),
    ...(Object.keys(skipped).length === 0 ? {} : { skipped }),
    ...(usage === undefined
      ? {}
      : {
          usage: { input: usage.inputTokens, cacheCreation: usage.cacheCreationInputTokens, cacheRead: usage.cacheReadInputTokens, output: usage.outputTokens },
          ...(r.route === 'messages' ? { window: r.window, fullness: round4(contextTokensOf(usage) / r.window) } : {}),
        }),
    ms: {
      total: round1(performance.now() - r.started),
      prepare: round1(r.prepareMs),
      ...(result.timings.headersMs === undefined ? {} : { headers: round1(result.timings.headersMs) }),
    },
    ...(result.error === undefined ? {} : { error: result.error.code }),
    ...(result.streamError === undefined ? {} : { streamError: result.streamError.type }),
  };
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function hasHeader(headers: Record<string, unknown>, name: string): boolean {
  return Object.keys(headers).some((k) => k.toLowerCase() === name);
}

function setHeader(headers: Record<string, unknown>, name: string, value: string): void {
  for (const k of Object.keys(headers)) if (k.toLowerCase() === name) headers[k] = value;
}

function round1(n: number): number {
  return Math.round(n * 10) / 10;
}

function round4(n: number): number {
  return Math.round(n * 10_000) / 10_000;
}
