/**
 * The scripted Anthropic Messages API, shared by `ctxshed demo` and the tests: a real `node:http`
 * server on 127.0.0.1 (any free port) that records every request byte for byte and answers
 *
 * - `POST /v1/messages`: the responder's reply, else a Read tool call; a model's message is priced
 *   with a prompt-cache model (cache-pricing.ts) for its usage, and sent as SSE when the body says
 *   `"stream": true`, as JSON otherwise (sse-encode.ts says which doc the stream follows);
 * - `POST /v1/messages/count_tokens`: `{"input_tokens": N}`;
 * - `HEAD /` and `GET /` (the client's connectivity probe): 200; anything else: the API's 404, or
 *   405 for another method on the two paths above;
 * - CONNECT: refused with 403 and recorded, so a client told to use it as HTTPS_PROXY reaches
 *   nothing else.
 *
 * Any reply may be scripted instead, faults included (reply.ts): statuses, error bodies, pauses,
 * compressed bodies, an `event: error` mid-stream, a connection cut or left hanging.
 *
 * Preserved thinking (on unless `preservedThinking: false`): a request to a model that runs the
 * prefix check (claude-fable-5-2, claude-mythos-5-2, claude-fable-5-1, claude-mythos-5-1,
 * claude-opus-5-5, claude-sonnet-5-5, claude-haiku-5-5) has every thinking block it sends back
 * checked before any responder runs (preserved-thinking/check-thinking.ts, written from the
 * Anthropic docs "Preserved thinking" and "Prefix checks on thinking blocks", independent of the
 * proxy's code): the documented 400 `messages.N.content.M: Invalid \`signature\` in \`thinking\`
 * block. The block is bound to a different conversation. ...`, or the failing blocks dropped under
 * `drop_block` (with the `thinking-binding-controls-2026-08-01` beta), or let through on an
 * `allow` account; a block the model cannot read is dropped silently. Under the beta header every
 * model answer carries `input_transformations` (top level in JSON, on `message_start`'s message
 * in SSE). Every model answer opens with a thinking block signed for its prefix (empty text unless
 * the request asks `thinking.display: "summarized"`), and thinking blocks a responder gives are
 * signed too. `thinkingChecks` keeps one record per checked request (count_tokens included).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { errorReply, promptTooLongReply, requestIdOf } from './api-error.js';
import { BYTES_PER_TOKEN, countTokens, priceRequest } from './cache-pricing.js';
import { errorText, isRecord } from '../errors.js';
import { apiId, assistantMessage, type Usage } from './message.js';
import {
  COUNT_TOKENS_PATH,
  isCountTokensRequest,
  isMessagesRequest,
  MESSAGES_PATH,
  parseRequestBody,
  pathnameOf,
  type ReceivedRequest,
} from './received-request.js';
import type { MessageReply, ScriptedReply, WireReply } from './reply.js';
import { sendReply } from './send-reply.js';
import { messageEvents } from './sse-encode.js';
import { BINDING_BETA, type CheckInput } from './preserved-thinking/check-thinking.js';
import {
  betasOf,
  checkInputOf,
  recordCheck,
  thinkingTextOf,
  type PreservedThinkingOptions,
  type ThinkingCheckRecord,
} from './preserved-thinking/request-gate.js';
import { signReplyContent } from './preserved-thinking/sign-thinking.js';

/**
 * Answers one request (any method, any path). `undefined` declines and the API answers as above;
 * a responder that throws gets the request a 500 `api_error`.
 */
export type Responder = (req: ReceivedRequest) => ScriptedReply | undefined | Promise<ScriptedReply | undefined>;

/** How to start the API; every option has a default. */
export interface MessagesApiOptions {
  readonly respond?: Responder;
  /** Tells conversations apart for the prompt-cache model. Default: all one conversation. */
  readonly conversationOf?: (req: ReceivedRequest) => string;
  /**
   * The context window in scripted tokens: a model call whose prompt counts more gets the API's
   * 400 `invalid_request_error` "prompt is too long: N tokens > M maximum", before any responder.
   */
  readonly maxPromptTokens?: number;
  /** The first request's `index` (to number requests across several servers). Default 0. */
  readonly firstIndex?: number;
  /** Called with each request once its body has arrived, before it is answered. */
  readonly onRequest?: (req: ReceivedRequest) => void;
  /** Preserved thinking on the models that run the prefix check (see above). Default `{ mismatch: 'error' }`; `false` turns it off. */
  readonly preservedThinking?: PreservedThinkingOptions | false;
}

/** A running scripted API. */
export interface MessagesApi {
  /** `http://127.0.0.1:<port>`, no trailing slash: what ANTHROPIC_BASE_URL wants. */
  readonly url: string;
  readonly port: number;
  /** Every request in arrival order. */
  readonly requests: ReceivedRequest[];
  /** The usage of each message the API priced, in order. */
  readonly usages: Usage[];
  /** One record per request whose thinking blocks were checked, in order: assert `refused` on these. */
  readonly thinkingChecks: ThinkingCheckRecord[];
  /** Stops listening and cuts every connection (a keep-alive one would hold close() open). */
  close(): Promise<void>;
}

/** Loopback only, like the proxy: a stand-in for the API is never reachable from elsewhere. */
const LOOPBACK = '127.0.0.1';
/** Output tokens of the API's own Read call. */
const DEFAULT_OUTPUT_TOKENS = 20;

/** Starts the API on 127.0.0.1, any free port. */
export async function startMessagesApi(options: MessagesApiOptions = {}): Promise<MessagesApi> {
  const requests: ReceivedRequest[] = [];
  const usages: Usage[] = [];
  const previousBody = new Map<string, Buffer>();
  const thinkingChecks: ThinkingCheckRecord[] = [];
  const checked = new Map<number, { readonly input: CheckInput; readonly record: ThinkingCheckRecord }>();
  let next = options.firstIndex ?? 0;

  /** The preserved-thinking check of a model call or token count, recorded; `undefined` when none applies. */
  const checkThinkingOf = (req: ReceivedRequest): ThinkingCheckRecord | undefined => {
    if (options.preservedThinking === false) return undefined;
    const endpoint = isMessagesRequest(req) ? 'messages' : isCountTokensRequest(req) ? 'count_tokens' : undefined;
    const input = endpoint === undefined ? undefined : checkInputOf(parseRequestBody(req), req.headers, options.preservedThinking ?? {});
    if (input === undefined || endpoint === undefined) return undefined;
    const record = recordCheck(req.index, endpoint, input);
    thinkingChecks.push(record);
    checked.set(req.index, { input, record });
    return record;
  };

  const record = (req: IncomingMessage, body: Buffer): ReceivedRequest => {
    const received: ReceivedRequest = {
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers: req.headers,
      rawHeaders: req.rawHeaders,
      body,
      index: next++,
    };
    requests.push(received);
    options.onRequest?.(received);
    return received;
  };

  const answer = async (req: ReceivedRequest): Promise<WireReply> => {
    // The API refuses a bound block before anything else runs, token counts included.
    const thinking = checkThinkingOf(req);
    if (thinking?.message !== undefined) return errorReply(400, 'invalid_request_error', thinking.message, requestIdOf(req.index));
    if (isMessagesRequest(req) && options.maxPromptTokens !== undefined) {
      const tokens = countTokens(req.body);
      // The API refuses before the model sees anything: nothing is cached, nothing generated.
      if (tokens > options.maxPromptTokens) return promptTooLongReply(tokens, options.maxPromptTokens, requestIdOf(req.index));
    }
    let reply: ScriptedReply | undefined;
    try {
      reply = await options.respond?.(req);
    } catch (error) {
      reply = errorReply(500, 'api_error', `the scripted responder threw: ${errorText(error)}`, requestIdOf(req.index));
    }
    reply ??= defaultReply(req);
    return reply.kind === 'message' ? encodeMessage(req, reply) : reply;
  };

  /** The message with its priced usage, as SSE or JSON as the request asked. */
  const encodeMessage = (req: ReceivedRequest, reply: MessageReply): WireReply => {
    const conversation = options.conversationOf?.(req) ?? 'main';
    const priced = priceRequest(previousBody.get(conversation), req.body);
    previousBody.set(conversation, req.body);
    const body = parseRequestBody(req);
    // The API answers as the model the request named.
    const requested = isRecord(body) && typeof body['model'] === 'string' ? body['model'] : undefined;
    const model = reply.model ?? requested;
    const bound = checked.get(req.index);
    const outcome = bound?.record.check.outcome;
    const content =
      bound === undefined || outcome?.kind !== 'answer'
        ? reply.content
        : signReplyContent(model ?? bound.input.model, bound.input, reply.content, outcome.seen, thinkingTextOf(body, req.index));
    const outputTokens = reply.outputTokens ?? Math.ceil(Buffer.byteLength(JSON.stringify(content)) / BYTES_PER_TOKEN);
    const plain = assistantMessage({
      content,
      usage: { ...priced, output_tokens: outputTokens, ...reply.usage },
      ...(model === undefined ? {} : { model }),
      ...(reply.stopReason === undefined ? {} : { stopReason: reply.stopReason }),
      ...(reply.id === undefined ? {} : { id: reply.id }),
    });
    // The documented field exists only under the beta header.
    const message =
      outcome?.kind === 'answer' && betasOf(req.headers).includes(BINDING_BETA) ? { ...plain, input_transformations: outcome.transformations } : plain;
    usages.push(message.usage);
    // The reply's head and faults carry over to the wire; its message fields are in `message`.
    const { kind: _kind, content: _content, stopReason: _stop, usage: _usage, outputTokens: _out, model: _model, id: _id, ...wire } = reply;
    const headers = Array.isArray(reply.headers) ? reply.headers : { 'request-id': requestIdOf(req.index), ...reply.headers };
    if (isRecord(body) && body['stream'] === true) return { ...wire, kind: 'sse', headers, events: messageEvents(message) };
    const { delayMs: _delay, errorAfter: _error, end: _end, ...json } = wire;
    return { ...json, kind: 'json', headers, body: message };
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    readBody(req)
      .then(async (body) => sendReply(res, await answer(record(req, body))))
      // An aborted upload or a write after the client left: nothing sensible is left to say.
      .catch(() => res.destroy());
  });
  // A client told to use this server as HTTPS_PROXY must not reach anything else: no tunnels.
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    record(req, Buffer.alloc(0));
    socket.on('error', () => undefined);
    socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, LOOPBACK, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${LOOPBACK}:${port}`,
    port,
    requests,
    usages,
    thinkingChecks,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** What the API answers when no responder does. */
function defaultReply(req: ReceivedRequest): ScriptedReply {
  if (isMessagesRequest(req)) {
    return {
      kind: 'message',
      content: [{ type: 'tool_use', id: apiId('toolu', req.index), name: 'Read', input: { file_path: `/src/file-${req.index}.ts` } }],
      outputTokens: DEFAULT_OUTPUT_TOKENS,
    };
  }
  if (isCountTokensRequest(req)) return { kind: 'json', headers: { 'request-id': requestIdOf(req.index) }, body: { input_tokens: countTokens(req.body) } };
  const pathname = pathnameOf(req);
  if (pathname === '/' && (req.method === 'HEAD' || req.method === 'GET')) {
    return { kind: 'raw', status: 200, headers: { 'content-type': 'text/plain' }, chunks: req.method === 'HEAD' ? [] : ['ok\n'] };
  }
  if (pathname === MESSAGES_PATH || pathname === COUNT_TOKENS_PATH) {
    return {
      ...errorReply(405, 'invalid_request_error', `${req.method} is not allowed on ${pathname}`, requestIdOf(req.index)),
      headers: { allow: 'POST', 'request-id': requestIdOf(req.index) },
    };
  }
  return errorReply(404, 'not_found_error', `${req.method} ${pathname} is not part of the scripted API`, requestIdOf(req.index));
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
