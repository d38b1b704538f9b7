/**
 * Serves one accepted Responses WebSocket (docs/openai.md "WebSockets"): each `response.create`
 * message, one at a time, becomes a streamed `POST …/responses` that goes the proxy's request path
 * (handle-request.ts: the same rewrite, epochs, overflow rescue, wire record and counts as any
 * HTTP request), and its answer goes back as frames (relay-events.ts). The socket is closed when
 * the client closes it, when the upstream's stream is cut off (1011), or on a bad frame (1002,
 * 1007, 1009, recorded); the proxy never dies on a socket.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorText } from '../../errors.js';
import type { EdgeRequest } from '../edge.js';
import { handleProxyRequest } from '../handle-request.js';
import type { ProxyDeps } from '../proxy-deps.js';
import { CLOSE_GRACE_MS, WebSocketConnection } from './connection.js';
import { CLOSE_CODE } from './frame-writer.js';
import { relayEvents } from './relay-events.js';
import { type CreatePlan, ResponsesSession } from './responses-session.js';
import { postHeadersOf } from './upgrade-headers.js';
import { recordSocketEvent, recordWarmup } from './record-socket.js';
import { warmupEvents } from './warmup-events.js';

/** One open socket, as the proxy keeps it to close it on shutdown. */
export interface OpenSocket {
  /** Closes it with 1001 (going away) and resolves once its last message is answered and recorded. */
  shutDown(): Promise<void>;
}

/** Serves the socket `req` was upgraded on (the 101 already written). */
export function serveResponsesSocket(deps: ProxyDeps, req: IncomingMessage, socket: Duplex, head: Buffer): OpenSocket {
  const session = new ResponsesSession();
  const gone = new AbortController();
  const upgrade = { url: req.url ?? '/', rawHeaders: req.rawHeaders, localPort: req.socket.localPort, remoteAddress: req.socket.remoteAddress };
  let queue: Promise<void> = Promise.resolve();
  const connection: WebSocketConnection = new WebSocketConnection(socket, {
    onMessage: (data, binary) => {
      queue = queue
        .then(() => serveMessage({ deps, session, connection, upgrade, signal: gone.signal }, data, binary))
        .catch((error: unknown) => {
          // Last resort: a message that could not be served closes its socket, never the proxy.
          connection.close(CLOSE_CODE.internalError, `internal error: ${errorText(error)}`);
        });
    },
    onClosed: () => gone.abort(),
    onViolation: (closeCode) => void recordSocketEvent(deps, upgrade.url, { closeCode }),
  });
  if (head.length > 0) connection.feed(head);
  return {
    shutDown: async () => {
      connection.close(CLOSE_CODE.goingAway, 'ctxshed is stopping');
      await queue;
      // The server closes only once every connection has: wait for this one, destroying it if the client never answers.
      await connection.gone(CLOSE_GRACE_MS);
    },
  };
}

/** What serving a message needs. */
interface MessageContext {
  readonly deps: ProxyDeps;
  readonly session: ResponsesSession;
  readonly connection: WebSocketConnection;
  readonly upgrade: { url: string; rawHeaders: readonly string[]; localPort: number | undefined; remoteAddress: string | undefined };
  readonly signal: AbortSignal;
}

async function serveMessage(ctx: MessageContext, data: Buffer, binary: boolean): Promise<void> {
  const { connection } = ctx;
  if (!connection.open) return;
  const plan: CreatePlan = binary
    ? { kind: 'invalid', code: 'unsupported_data', message: 'ctxshed takes text messages only.' }
    : ctx.session.plan(data.toString('utf8'));
  switch (plan.kind) {
    case 'invalid':
      await connection.sendText(
        JSON.stringify({ type: 'error', status: 400, error: { type: 'invalid_request_error', code: plan.code, message: plan.message } }),
      );
      return;
    case 'warmup': {
      const started = performance.now();
      const { id, events } = warmupEvents(data, ctx.deps.now());
      for (const event of events) await connection.sendText(event);
      ctx.session.completed(id, plan.input, []);
      await recordWarmup(ctx.deps, ctx.upgrade.url, { bytesIn: data.length, started });
      return;
    }
    case 'forward':
      await forwardMessage(ctx, plan);
      return;
  }
}

/** One message as a POST on the request path, its answer relayed; the session remembers a completed response. */
async function forwardMessage(ctx: MessageContext, plan: Extract<CreatePlan, { kind: 'forward' }>): Promise<void> {
  const { headers, rawHeaders } = postHeadersOf(ctx.upgrade.rawHeaders, plan.body.length);
  // One signal per message, cut when the socket goes: the socket's own would gather a listener per message.
  const cut = new AbortController();
  const onGone = (): void => cut.abort();
  ctx.signal.addEventListener('abort', onGone, { once: true });
  try {
    await sendMessage(ctx, plan, { headers, rawHeaders, signal: cut.signal });
  } finally {
    ctx.signal.removeEventListener('abort', onGone);
  }
}

async function sendMessage(
  ctx: MessageContext,
  plan: Extract<CreatePlan, { kind: 'forward' }>,
  made: { readonly headers: EdgeRequest['headers']; readonly rawHeaders: readonly string[]; readonly signal: AbortSignal },
): Promise<void> {
  const { headers, rawHeaders, signal } = made;
  const request: EdgeRequest = {
    method: 'POST',
    url: ctx.upgrade.url,
    headers,
    rawHeaders,
    localPort: ctx.upgrade.localPort,
    remoteAddress: ctx.upgrade.remoteAddress,
    body: plan.body,
    signal,
    transport: 'websocket',
    ...(plan.foreign
      ? { passthrough: { reason: 'previous_response_foreign', detail: 'previous_response_id does not name the response last completed on this WebSocket' } }
      : {}),
  };
  const response = await handleProxyRequest(ctx.deps, request);
  const outcome = await relayEvents(response, (text) => ctx.connection.sendText(text));
  if (outcome.kind === 'completed' && plan.input !== undefined) ctx.session.completed(outcome.id, plan.input, outcome.output);
  // The upstream went away mid-answer: the client must not take a partial answer for a whole one.
  if (outcome.kind === 'cut') ctx.connection.close(CLOSE_CODE.internalError, 'the upstream response was cut off');
  await response.finished;
}
