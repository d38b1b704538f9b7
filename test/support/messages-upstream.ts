/**
 * A scripted Anthropic Messages API upstream for tests: a real `node:http` server on 127.0.0.1
 * that records every request byte-exact and answers model calls from a test-supplied responder.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { constants as zlibConstants, createGzip, gzipSync } from 'node:zlib';

/** One request as the upstream received it. `body` holds the exact bytes, never re-encoded. */
export interface ReceivedRequest {
  method: string;
  /** The raw request target, query included: `/v1/messages?beta=true`. */
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** 0-based arrival order across every request this upstream saw, CONNECT attempts included. */
  index: number;
}

export type ScriptedReply =
  | { kind: 'json'; status?: number; headers?: Record<string, string>; body: unknown; gzip?: boolean }
  | {
      kind: 'sse';
      status?: number;
      headers?: Record<string, string>;
      events: Array<{ event: string; data: unknown }>;
      gzip?: boolean;
      /** Pause before each event, so a client sees a stream rather than one write. */
      delayMs?: number;
    }
  | { kind: 'raw'; status: number; headers?: Record<string, string>; chunks: Array<Buffer | string> };

/**
 * Answers `POST /v1/messages` and `POST /v1/messages/count_tokens`. Returning `undefined` declines
 * and the upstream answers itself: a token count for count_tokens, a 500 `api_error` otherwise.
 * Use `isCountTokensRequest` to let count_tokens calls pass without disturbing a script.
 */
export type Responder = (
  req: ReceivedRequest,
) => ScriptedReply | undefined | Promise<ScriptedReply | undefined>;

export interface MessagesUpstream {
  /** `http://127.0.0.1:<port>`, no trailing slash: what ANTHROPIC_BASE_URL wants. */
  url: string;
  port: number;
  requests: ReceivedRequest[];
  close(): Promise<void>;
  /** Called with each request as soon as its body has arrived, before it is answered. */
  onRequest?: (r: ReceivedRequest) => void;
}

export interface Usage {
  input_tokens: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
  output_tokens: number;
}

const MESSAGES_PATH = '/v1/messages';
const COUNT_TOKENS_PATH = '/v1/messages/count_tokens';
/** The rough bytes-per-token ratio the default count_tokens answer uses. */
const BYTES_PER_TOKEN = 4;
/** Deltas are cut this many code points long so a client sees several per block. */
const DELTA_CODE_POINTS = 64;
const DEFAULT_MODEL = 'claude-sonnet-4-5-20250929';

/** The request target without its query string. */
export function pathnameOf(req: ReceivedRequest): string {
  const q = req.path.indexOf('?');
  return q === -1 ? req.path : req.path.slice(0, q);
}

/** True for a model call: `POST /v1/messages` with any query. */
export function isMessagesRequest(req: ReceivedRequest): boolean {
  return req.method === 'POST' && pathnameOf(req) === MESSAGES_PATH;
}

/** True for `POST /v1/messages/count_tokens` with any query. */
export function isCountTokensRequest(req: ReceivedRequest): boolean {
  return req.method === 'POST' && pathnameOf(req) === COUNT_TOKENS_PATH;
}

/** The request body parsed as JSON, or `undefined` when it is not JSON. */
export function parseRequestBody(req: ReceivedRequest): unknown {
  try {
    return JSON.parse(req.body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** Start an upstream on 127.0.0.1, port 0, answering model calls with `responder`. */
export async function startMessagesUpstream(responder: Responder): Promise<MessagesUpstream> {
  const requests: ReceivedRequest[] = [];
  const upstream: MessagesUpstream = {
    url: '',
    port: 0,
    requests,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive sockets would hold close() open until the client gives up on them.
        server.closeAllConnections();
      });
    },
  };

  const record = (method: string, path: string, headers: IncomingHttpHeaders, body: Buffer): ReceivedRequest => {
    const received: ReceivedRequest = { method, path, headers, body, index: requests.length };
    requests.push(received);
    upstream.onRequest?.(received);
    return received;
  };

  const server = createServer((req, res) => {
    readBody(req)
      .then(async (body) => {
        const received = record(req.method ?? 'GET', req.url ?? '/', req.headers, body);
        await answer(received, responder, res);
      })
      // An aborted upload or a write after the client left: nothing sensible is left to say.
      .catch(() => res.destroy());
  });

  // A client told to use us as HTTPS_PROXY must not reach anything else: refuse every tunnel.
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    record('CONNECT', req.url ?? '', req.headers, Buffer.alloc(0));
    socket.on('error', () => undefined);
    socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  upstream.port = port;
  upstream.url = `http://127.0.0.1:${port}`;
  return upstream;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function answer(req: ReceivedRequest, responder: Responder, res: ServerResponse): Promise<void> {
  const pathname = pathnameOf(req);
  if (pathname !== MESSAGES_PATH && pathname !== COUNT_TOKENS_PATH) {
    // The client probes `HEAD /` for connectivity; anything else is not part of the API we play.
    if (pathname === '/' && (req.method === 'HEAD' || req.method === 'GET')) {
      await send(res, { kind: 'raw', status: 200, headers: { 'content-type': 'text/plain' }, chunks: req.method === 'HEAD' ? [] : ['ok\n'] });
    } else {
      await send(res, errorReply(404, 'not_found_error', `${req.method} ${pathname} is not scripted`));
    }
    return;
  }
  if (req.method !== 'POST') {
    await send(res, { ...errorReply(405, 'invalid_request_error', `${req.method} not allowed`), headers: { allow: 'POST' } });
    return;
  }
  let reply: ScriptedReply | undefined;
  try {
    reply = await responder(req);
  } catch (error) {
    reply = errorReply(500, 'api_error', `responder threw: ${String(error)}`);
  }
  await send(res, reply ?? defaultReply(req));
}

function defaultReply(req: ReceivedRequest): ScriptedReply {
  if (isCountTokensRequest(req)) {
    return { kind: 'json', body: { input_tokens: Math.ceil(req.body.length / BYTES_PER_TOKEN) } };
  }
  return errorReply(500, 'api_error', `no scripted reply for request ${req.index}`);
}

/** An Anthropic-shaped error reply: `{"type":"error","error":{type,message}}`. */
export function errorReply(status: number, type: string, message: string): ScriptedReply {
  return { kind: 'json', status, body: { type: 'error', error: { type, message } } };
}

async function send(res: ServerResponse, reply: ScriptedReply): Promise<void> {
  switch (reply.kind) {
    case 'json': {
      const json = Buffer.from(JSON.stringify(reply.body), 'utf8');
      const body = reply.gzip === true ? gzipSync(json) : json;
      res.writeHead(reply.status ?? 200, {
        'content-type': 'application/json',
        'content-length': String(body.length),
        ...(reply.gzip === true ? { 'content-encoding': 'gzip' } : {}),
        ...reply.headers,
      });
      res.end(body);
      return;
    }
    case 'sse': {
      res.writeHead(reply.status ?? 200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        ...(reply.gzip === true ? { 'content-encoding': 'gzip' } : {}),
        ...reply.headers,
      });
      const gzip = reply.gzip === true ? createGzip() : undefined;
      if (gzip !== undefined) gzip.pipe(res);
      const sink = gzip ?? res;
      for (const { event, data } of reply.events) {
        if (reply.delayMs !== undefined) await sleep(reply.delayMs);
        if (res.destroyed) return;
        sink.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
        // Without a sync flush gzip would hold every event until the end and the stream would
        // arrive in one piece.
        gzip?.flush(zlibConstants.Z_SYNC_FLUSH);
      }
      sink.end();
      return;
    }
    case 'raw': {
      res.writeHead(reply.status, reply.headers);
      for (const chunk of reply.chunks) res.write(chunk);
      res.end();
      return;
    }
  }
}

async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

let messageCounter = 0;
let toolUseCounter = 0;

/** An id shaped like the API's: prefix, `01`, then 22 base-62-ish characters. Deterministic. */
function makeId(prefix: string, n: number): string {
  return `${prefix}_01${String(n).padStart(22, '0')}`;
}

/** A `tool_use` content block with a fresh `toolu_…` id (or the one given). */
export function toolUse(name: string, input: Record<string, unknown>, id?: string): object {
  toolUseCounter += 1;
  return { type: 'tool_use', id: id ?? makeId('toolu', toolUseCounter), name, input };
}

/** A complete Messages API `Message`, as a non-streaming reply carries it. */
export function assistantMessage(opts: {
  content: unknown[];
  usage: Usage;
  model?: string;
  stopReason?: string;
  id?: string;
}): object {
  messageCounter += 1;
  const hasToolUse = opts.content.some((b) => isRecord(b) && b['type'] === 'tool_use');
  const cacheCreation = opts.usage.cache_creation_input_tokens ?? 0;
  return {
    id: opts.id ?? makeId('msg', messageCounter),
    type: 'message',
    role: 'assistant',
    model: opts.model ?? DEFAULT_MODEL,
    content: opts.content,
    stop_reason: opts.stopReason ?? (hasToolUse ? 'tool_use' : 'end_turn'),
    stop_sequence: null,
    usage: {
      input_tokens: opts.usage.input_tokens,
      cache_creation_input_tokens: cacheCreation,
      cache_read_input_tokens: opts.usage.cache_read_input_tokens ?? 0,
      cache_creation: { ephemeral_5m_input_tokens: cacheCreation, ephemeral_1h_input_tokens: 0 },
      output_tokens: opts.usage.output_tokens,
      service_tier: 'standard',
    },
  };
}

/**
 * The SSE events the API streams for `message`, in the API's order: message_start (input-side
 * usage), a ping, start/delta/stop per block, message_delta (stop_reason, final usage), message_stop.
 */
export function sseFromMessage(message: object): Array<{ event: string; data: unknown }> {
  const m = message as Record<string, unknown>;
  const content = Array.isArray(m['content']) ? (m['content'] as unknown[]) : [];
  const usage = isRecord(m['usage']) ? m['usage'] : {};
  const events: Array<{ event: string; data: unknown }> = [];
  const push = (event: string, data: Record<string, unknown>): void => {
    events.push({ event, data: { type: event, ...data } });
  };

  push('message_start', {
    message: { ...m, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } },
  });
  content.forEach((block, index) => pushBlock(push, block, index));
  if (content.length === 0) push('ping', {});
  push('message_delta', {
    delta: { stop_reason: m['stop_reason'] ?? 'end_turn', stop_sequence: m['stop_sequence'] ?? null },
    usage,
  });
  push('message_stop', {});
  return events;
}

function pushBlock(emit: (event: string, data: Record<string, unknown>) => void, block: unknown, index: number): void {
  const b = isRecord(block) ? block : {};
  const push = (event: string, data: Record<string, unknown>): void => {
    emit(event, data);
    // The API sends its one ping right after the first block opens.
    if (event === 'content_block_start' && index === 0) emit('ping', {});
  };
  const deltas = (kind: string, field: string, text: string): void => {
    for (const piece of splitCodePoints(text, DELTA_CODE_POINTS)) {
      push('content_block_delta', { index, delta: { type: kind, [field]: piece } });
    }
  };
  switch (b['type']) {
    case 'text':
      push('content_block_start', { index, content_block: { ...b, text: '' } });
      deltas('text_delta', 'text', typeof b['text'] === 'string' ? b['text'] : '');
      break;
    case 'tool_use':
      push('content_block_start', { index, content_block: { ...b, input: {} } });
      // The API opens every tool_use with an empty partial_json.
      push('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: '' } });
      deltas('input_json_delta', 'partial_json', JSON.stringify(b['input'] ?? {}));
      break;
    case 'thinking':
      push('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } });
      deltas('thinking_delta', 'thinking', typeof b['thinking'] === 'string' ? b['thinking'] : '');
      push('content_block_delta', {
        index,
        delta: { type: 'signature_delta', signature: typeof b['signature'] === 'string' ? b['signature'] : '' },
      });
      break;
    default:
      push('content_block_start', { index, content_block: b });
  }
  push('content_block_stop', { index });
}

/** `text` cut into pieces of at most `size` code points, never splitting a surrogate pair. */
function splitCodePoints(text: string, size: number): string[] {
  const points = Array.from(text);
  const pieces: string[] = [];
  for (let i = 0; i < points.length; i += size) pieces.push(points.slice(i, i + size).join(''));
  return pieces;
}

/** Answer `req` with `message`: as SSE when its body asks for `stream: true`, as JSON otherwise. */
export function replyWith(req: ReceivedRequest, message: object): ScriptedReply {
  const body = parseRequestBody(req);
  if (isRecord(body) && body['stream'] === true) return { kind: 'sse', events: sseFromMessage(message) };
  return { kind: 'json', body: message };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
