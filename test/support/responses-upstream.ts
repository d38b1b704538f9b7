/**
 * A scripted OpenAI upstream for tests: a real `node:http` server on 127.0.0.1 that records every
 * request byte-exact and answers `POST /v1/responses` (and `/v1/chat/completions`) from a
 * test-supplied responder, as SSE when the body asks for `stream: true`, as JSON otherwise.
 *
 * With `contextWindow`, a model call whose body is over the window (its tokens counted as its bytes
 * over a fixed ratio) is refused as the API refuses it, before the responder is asked: a streamed
 * Responses request inside its 200 stream (`response.failed`, `context_length_exceeded`), anything
 * else with a 400 `context_length_exceeded` in each API's own words (docs/openai.md, "Rescue on overflow").
 *
 * Remote compaction, as documented (docs/openai.md, "Remote compaction"), is answered by the
 * upstream itself, never by the responder: `POST /v1/responses/compact` with a JSON `response.compaction`
 * object whose `output` keeps the input's user messages verbatim and ends in one `compaction` item;
 * a streamed `POST /v1/responses` whose last input item is `{"type":"compaction_trigger"}` with exactly
 * one `compaction` output item. Either refuses (400) an `input` that is not an array of objects.
 *
 * A WebSocket upgrade (Codex tries `ws://<base>/responses` first) is refused with `426 Upgrade
 * Required`: this upstream speaks HTTP only, as ctxshed does to its upstream (a 404 would cost
 * Codex five retries, about six seconds, before it fell back). A request naming a
 * `previous_response_id` is refused with the API's 400 `previous_response_not_found`: nothing is
 * stored here, so a test proves ctxshed sent the whole input instead.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { parseRequestBody, pathnameOf, type ReceivedRequest } from '../../src/scripted/received-request.js';
import { compactedObject, withCompaction } from './responses-compaction.js';
import { refusalBody, validateResponsesInput } from './responses-validator.js';
import { chatRefusalBody, validateChatMessages } from './chat-validator.js';

/** What a responder answers: a Responses `response` object's output items and usage, or a raw reply. */
export type OpenAiReply =
  | { readonly kind: 'response'; readonly output: readonly object[]; readonly usage: ResponsesUsage; readonly model?: string }
  | { readonly kind: 'chat'; readonly message: object; readonly usage: ChatUsage; readonly finishReason?: string; readonly model?: string }
  | { readonly kind: 'raw'; readonly status: number; readonly headers?: Record<string, string>; readonly body: string }
  | { readonly kind: 'too_long'; readonly tokens: number; readonly limit: number };

/** Answers one model call; `undefined` declines (the upstream then answers 500). */
export type OpenAiResponder = (req: ReceivedRequest) => OpenAiReply | undefined | Promise<OpenAiReply | undefined>;

/** `usage` of a Responses `response`: `input_tokens` already counts the cached ones. */
export interface ResponsesUsage {
  readonly input_tokens: number;
  readonly input_tokens_details: { readonly cached_tokens: number };
  readonly output_tokens: number;
  readonly output_tokens_details: { readonly reasoning_tokens: number };
  readonly total_tokens: number;
}

/** `usage` of a chat completion: `prompt_tokens` already counts the cached ones. */
export interface ChatUsage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly total_tokens: number;
  readonly prompt_tokens_details: { readonly cached_tokens: number };
}

export interface OpenAiUpstream {
  /** `http://127.0.0.1:<port>/v1`: what a client's OpenAI base URL wants. */
  readonly baseUrl: string;
  readonly port: number;
  /** Every request, WebSocket upgrades (method `GET`, an `upgrade` header) and CONNECT attempts included. */
  readonly requests: ReceivedRequest[];
  close(): Promise<void>;
}

/** What the upstream may be told besides its responder. */
export interface OpenAiUpstreamOptions {
  /** Refuse a model call over this many tokens, counting `bytesPerToken` bytes of body as one token. */
  readonly contextWindow?: { readonly tokens: number; readonly bytesPerToken: number };
  /**
   * Refuse a Responses or compact request whose `input` breaks the API's pairing rules or types a
   * call's arguments wrong (responses-validator.ts), and a chat request whose tool arguments or
   * assistant contents the API would refuse (chat-validator.ts), as the real API does with a 400.
   * On unless `false`.
   */
  readonly pairing?: boolean;
}

export const RESPONSES_PATH = '/v1/responses';
export const CHAT_PATH = '/v1/chat/completions';
export const COMPACT_PATH = '/v1/responses/compact';
const DEFAULT_MODEL = 'gpt-test';

/** True for `POST /v1/responses`. */
export function isResponsesRequest(req: ReceivedRequest): boolean {
  return req.method === 'POST' && pathnameOf(req) === RESPONSES_PATH;
}

/** True for `POST /v1/responses/compact`. */
export function isCompactRequest(req: ReceivedRequest): boolean {
  return req.method === 'POST' && pathnameOf(req) === COMPACT_PATH;
}

/** True for `POST /v1/chat/completions`. */
export function isChatRequest(req: ReceivedRequest): boolean {
  return req.method === 'POST' && pathnameOf(req) === CHAT_PATH;
}

/** Starts the upstream on 127.0.0.1, port 0. */
export async function startOpenAiUpstream(responder: OpenAiResponder, options: OpenAiUpstreamOptions = {}): Promise<OpenAiUpstream> {
  const requests: ReceivedRequest[] = [];
  const answering = withPairing(withWindow(withCompaction(responder, isCompactRequest), options), options);
  const record = (req: IncomingMessage, body: Buffer): ReceivedRequest => {
    const received: ReceivedRequest = {
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers: req.headers,
      rawHeaders: req.rawHeaders,
      body,
      index: requests.length,
    };
    requests.push(received);
    return received;
  };
  const server = createServer((req, res) => {
    readBody(req)
      .then(async (body) => answer(record(req, body), answering, res))
      .catch(() => res.destroy());
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex) => {
    record(req, Buffer.alloc(0));
    socket.on('error', () => undefined);
    socket.end('HTTP/1.1 426 Upgrade Required\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
  });
  // A client told to use us as HTTPS_PROXY must not reach anything else: refuse every tunnel.
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    record(req, Buffer.alloc(0));
    socket.on('error', () => undefined);
    socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

// The window is checked before the responder: the API refuses before the model runs.
function withWindow(responder: OpenAiResponder, options: OpenAiUpstreamOptions): OpenAiResponder {
  const window = options.contextWindow;
  if (window === undefined) return responder;
  return (req) => {
    const tokens = Math.ceil(req.body.length / window.bytesPerToken);
    if (tokens <= window.tokens) return responder(req);
    return { kind: 'too_long', tokens, limit: window.tokens };
  };
}

/**
 * The pairing rules are checked first, as the API reads the input before the model runs. The
 * reasoning items this upstream wrote are remembered with the item that followed each, so that a
 * request sending one back without it is refused by id, as the real API refuses it.
 */
function withPairing(responder: OpenAiResponder, options: OpenAiUpstreamOptions): OpenAiResponder {
  if (options.pairing === false) return responder;
  const written = new Map<string, string>();
  return async (req) => {
    if (isResponsesRequest(req) || isCompactRequest(req)) {
      const refusal = refusalBody(validateResponsesInput(req.body, written));
      if (refusal !== undefined) return { kind: 'raw', status: 400, body: refusal };
    }
    // A chat call's tool arguments and assistant contents, as the API types them (chat-validator.ts).
    if (isChatRequest(req)) {
      const refusal = chatRefusalBody(validateChatMessages(req.body));
      if (refusal !== undefined) return { kind: 'raw', status: 400, body: refusal };
    }
    const reply = await responder(req);
    if (reply?.kind === 'response') rememberReasoning(reply.output, written);
    return reply;
  };
}

function rememberReasoning(output: readonly object[], written: Map<string, string>): void {
  output.forEach((item, i) => {
    const next = output[i + 1] as Record<string, unknown> | undefined;
    const it = item as Record<string, unknown>;
    if (it['type'] === 'reasoning' && typeof it['id'] === 'string' && typeof next?.['id'] === 'string') written.set(it['id'], next['id']);
  });
}

/**
 * The body of each API's 400 for a request over the model's context: the Responses API names no
 * count, Chat Completions names the maximum and the request's tokens.
 */
export function contextLengthExceededBody(api: 'responses' | 'chat', tokens: number, limit: number): string {
  const error =
    api === 'responses'
      ? {
          message: 'Your input exceeds the context window of this model. Please adjust your input and try again.',
          type: 'invalid_request_error',
          param: 'input',
          code: 'context_length_exceeded',
        }
      : {
          message: `This model's maximum context length is ${limit} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`,
          type: 'invalid_request_error',
          param: 'messages',
          code: 'context_length_exceeded',
        };
  return JSON.stringify({ error });
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function answer(req: ReceivedRequest, responder: OpenAiResponder, res: ServerResponse): Promise<void> {
  if (!isResponsesRequest(req) && !isChatRequest(req) && !isCompactRequest(req)) {
    send(res, 404, { 'content-type': 'application/json' }, errorBody('not_found', `${req.method} ${pathnameOf(req)} is not scripted`));
    return;
  }
  const unknownPrevious = previousResponseIdOf(req);
  if (unknownPrevious !== undefined) {
    send(res, 400, { 'content-type': 'application/json' }, previousResponseNotFoundBody(unknownPrevious));
    return;
  }
  let reply: OpenAiReply | undefined;
  try {
    reply = await responder(req);
  } catch (error) {
    reply = { kind: 'raw', status: 500, body: errorBody('server_error', `responder threw: ${String(error)}`) };
  }
  if (reply === undefined) reply = { kind: 'raw', status: 500, body: errorBody('server_error', `no scripted reply for request ${req.index}`) };
  const parsed = parseRequestBody(req);
  const stream = isRecord(parsed) && parsed['stream'] === true;
  switch (reply.kind) {
    case 'raw':
      send(res, reply.status, { 'content-type': 'application/json', ...reply.headers }, reply.body);
      return;
    case 'too_long':
      // The Responses API refuses a streamed request inside its 200 stream; anything else gets the 400.
      if (stream && isResponsesRequest(req)) sendSse(res, failedEvents(req), true);
      else
        send(res, 400, { 'content-type': 'application/json' }, contextLengthExceededBody(isChatRequest(req) ? 'chat' : 'responses', reply.tokens, reply.limit));
      return;
    case 'response': {
      const response = responseObject(req, reply);
      if (isCompactRequest(req)) send(res, 200, { 'content-type': 'application/json' }, JSON.stringify(compactedObject(response)));
      else if (!stream) send(res, 200, { 'content-type': 'application/json' }, JSON.stringify(response));
      else sendSse(res, responseEvents(response, reply.output), true);
      return;
    }
    case 'chat': {
      if (!stream) send(res, 200, { 'content-type': 'application/json' }, JSON.stringify(chatCompletion(req, reply)));
      else sendSse(res, chatChunks(req, reply, parsed), false);
      return;
    }
  }
}

/**
 * The `previous_response_id` of a Responses request, if it names one. This upstream stores no
 * response (Codex sends `store: false`), so any it names is unknown.
 */
function previousResponseIdOf(req: ReceivedRequest): string | undefined {
  if (!isResponsesRequest(req)) return undefined;
  const body = parseRequestBody(req);
  const id = isRecord(body) ? body['previous_response_id'] : undefined;
  return typeof id === 'string' ? id : undefined;
}

/** The API's 400 for a `previous_response_id` it does not know (its WebSocket mode sends the same error in an `error` event). */
export function previousResponseNotFoundBody(id: string): string {
  return JSON.stringify({
    error: {
      message: `Previous response with id '${id}' not found.`,
      type: 'invalid_request_error',
      param: 'previous_response_id',
      code: 'previous_response_not_found',
    },
  });
}

/** An OpenAI-shaped error body. */
export function errorBody(type: string, message: string): string {
  return JSON.stringify({ error: { message, type, param: null, code: null } });
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string): void {
  const bytes = Buffer.from(body, 'utf8');
  res.writeHead(status, { ...headers, 'content-length': String(bytes.length) });
  res.end(bytes);
}

/** Writes SSE events; the Responses API names each event, chat completions send bare `data:` lines ending with `[DONE]`. */
function sendSse(res: ServerResponse, events: readonly Record<string, unknown>[], named: boolean): void {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  for (const event of events) {
    const name = named && typeof event['type'] === 'string' ? `event: ${event['type']}\n` : '';
    res.write(`${name}data: ${JSON.stringify(event)}\n\n`);
  }
  if (!named) res.write('data: [DONE]\n\n');
  res.end();
}

let responseCounter = 0;

function responseObject(req: ReceivedRequest, reply: Extract<OpenAiReply, { kind: 'response' }>): Record<string, unknown> {
  responseCounter += 1;
  const body = parseRequestBody(req);
  const model = reply.model ?? (isRecord(body) && typeof body['model'] === 'string' ? body['model'] : DEFAULT_MODEL);
  return {
    id: `resp_${String(responseCounter).padStart(24, '0')}`,
    object: 'response',
    created_at: 1_796_000_000 + responseCounter,
    status: 'completed',
    model,
    output: reply.output,
    usage: reply.usage,
  };
}

/**
 * A streamed refusal as too long, in the order Codex's own test of it has
 * (`context_window_error_is_fatal`, codex-rs/codex-api/src/sse/responses.rs): `response.created`,
 * `response.in_progress`, then `response.failed` whose `response.error` has the code.
 */
export function failedEvents(req: ReceivedRequest): Record<string, unknown>[] {
  // Named by the request's bytes, so the same request is refused in the same bytes (a test compares them).
  const body = parseRequestBody(req);
  const model = isRecord(body) && typeof body['model'] === 'string' ? body['model'] : DEFAULT_MODEL;
  const head = { id: `resp_${createHash('sha256').update(req.body).digest('hex').slice(0, 24)}`, object: 'response', created_at: 1_796_000_000, model };
  const error = { code: 'context_length_exceeded', message: 'Your input exceeds the context window of this model. Please adjust your input and try again.' };
  return [
    { type: 'response.created', response: { ...head, status: 'in_progress', output: [] }, sequence_number: 0 },
    { type: 'response.in_progress', response: { ...head, status: 'in_progress', output: [] }, sequence_number: 1 },
    { type: 'response.failed', response: { ...head, status: 'failed', output: [], error, usage: null }, sequence_number: 2 },
  ];
}

/** The events of a streamed response, in the API's order; usage comes with `response.completed`. */
function responseEvents(response: Record<string, unknown>, output: readonly object[]): Record<string, unknown>[] {
  const events: Record<string, unknown>[] = [];
  const push = (event: Record<string, unknown>): void => {
    events.push({ ...event, sequence_number: events.length });
  };
  const { usage: _usage, ...inProgress } = response;
  push({ type: 'response.created', response: { ...inProgress, status: 'in_progress', output: [] } });
  push({ type: 'response.in_progress', response: { ...inProgress, status: 'in_progress', output: [] } });
  output.forEach((item, outputIndex) => {
    push({ type: 'response.output_item.added', output_index: outputIndex, item });
    const i = item as Record<string, unknown>;
    if (i['type'] === 'message' && Array.isArray(i['content'])) {
      for (const [contentIndex, part] of (i['content'] as unknown[]).entries()) {
        const text = isRecord(part) && typeof part['text'] === 'string' ? part['text'] : '';
        push({ type: 'response.output_text.delta', item_id: i['id'], output_index: outputIndex, content_index: contentIndex, delta: text });
        push({ type: 'response.output_text.done', item_id: i['id'], output_index: outputIndex, content_index: contentIndex, text });
      }
    }
    push({ type: 'response.output_item.done', output_index: outputIndex, item });
  });
  push({ type: 'response.completed', response });
  return events;
}

function chatCompletion(req: ReceivedRequest, reply: Extract<OpenAiReply, { kind: 'chat' }>): Record<string, unknown> {
  responseCounter += 1;
  const body = parseRequestBody(req);
  const model = reply.model ?? (isRecord(body) && typeof body['model'] === 'string' ? body['model'] : DEFAULT_MODEL);
  return {
    id: `chatcmpl-${String(responseCounter).padStart(24, '0')}`,
    object: 'chat.completion',
    created: 1_796_000_000 + responseCounter,
    model,
    choices: [{ index: 0, message: reply.message, finish_reason: reply.finishReason ?? 'stop' }],
    usage: reply.usage,
  };
}

/** Chunks of a streamed chat completion; usage only in a last chunk, when `stream_options.include_usage` asked for it. */
function chatChunks(req: ReceivedRequest, reply: Extract<OpenAiReply, { kind: 'chat' }>, body: unknown): Record<string, unknown>[] {
  const whole = chatCompletion(req, reply);
  const base = { id: whole['id'], object: 'chat.completion.chunk', created: whole['created'], model: whole['model'] };
  const options = isRecord(body) ? body['stream_options'] : undefined;
  const withUsage = isRecord(options) && options['include_usage'] === true;
  const chunks: Record<string, unknown>[] = [
    { ...base, choices: [{ index: 0, delta: reply.message, finish_reason: null }], ...(withUsage ? { usage: null } : {}) },
    { ...base, choices: [{ index: 0, delta: {}, finish_reason: reply.finishReason ?? 'stop' }], ...(withUsage ? { usage: null } : {}) },
  ];
  if (withUsage) chunks.push({ ...base, choices: [], usage: reply.usage });
  return chunks;
}

/** Realistic Responses usage: `input` tokens in all, `cached` of them read from the cache. */
export function responsesUsage(input: number, cached: number, output = 20): ResponsesUsage {
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: Math.min(cached, input) },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + output,
  };
}

/** Realistic chat usage: `prompt` tokens in all, `cached` of them read from the cache. */
export function chatUsage(prompt: number, cached: number, completion = 20): ChatUsage {
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: Math.min(cached, prompt) },
  };
}

let itemCounter = 0;

function nextId(prefix: string): string {
  itemCounter += 1;
  return `${prefix}_${String(itemCounter).padStart(24, '0')}`;
}

/** A `function_call` output item (Codex's `exec_command` is one). */
export function functionCall(name: string, args: Record<string, unknown>, callId = nextId('call')): object {
  return { type: 'function_call', id: nextId('fc'), status: 'completed', name, arguments: JSON.stringify(args), call_id: callId };
}

/** A `custom_tool_call` output item: a freeform tool such as Codex's `exec` (JavaScript source). */
export function customToolCall(name: string, input: string, callId = nextId('call')): object {
  return { type: 'custom_tool_call', id: nextId('ctc'), status: 'completed', name, input, call_id: callId };
}

/** An assistant `message` output item. */
export function messageItem(text: string): object {
  return { type: 'message', id: nextId('msg'), role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] };
}

/** A `reasoning` output item with a summary and an opaque encrypted_content, as the API returns with `include: ["reasoning.encrypted_content"]`. */
export function reasoningItem(summary: string): object {
  const opaque = Buffer.from(`scripted reasoning: ${summary}`).toString('base64');
  return { type: 'reasoning', id: nextId('rs'), summary: [{ type: 'summary_text', text: summary }], encrypted_content: `gAAAAA${opaque}` };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
