/** Proxy-side failures, answered in the error shape of the API the client speaks. */
import { outwardMessage } from '../errors.js';
import type { OutgoingHttpHeaders } from 'node:http';
import type { Reply } from './reply.js';

/** What an error answer needs of the response: the request's reply (reply.ts). */
export type ErrorSink = Pick<Reply, 'answerBytes'>;

/**
 * Which error shape a client parses: the Anthropic Messages API's (the default everywhere) or
 * the OpenAI APIs' (the Responses and Chat Completions routes).
 */
export type ErrorShape = 'anthropic' | 'openai';

/**
 * `{"type":"error","error":{"type":...,"message":...}}`, the shape the API and its SDKs parse, so
 * the client reports (and retries) a proxy failure like any other API error. The message leaves
 * the program here, so it says ctxshed (once).
 */
export function apiErrorBody(type: string, message: string): Buffer {
  return Buffer.from(JSON.stringify({ type: 'error', error: { type, message: outwardMessage(message) } }), 'utf8');
}

/** `{"error":{"message","type","param","code"}}`, the OpenAI APIs' shape, which their SDKs and Codex parse. */
export function openAiErrorBody(type: string, message: string, code: string | null = null): Buffer {
  return Buffer.from(JSON.stringify({ error: { message: outwardMessage(message), type, param: null, code } }), 'utf8');
}

/**
 * The shape a request's client expects, from its path: the OpenAI routes end in `/responses` or
 * `/chat/completions` (after any prefix of the base URL, as model-route.ts matches them), or
 * hold `/responses/` (a stored response's sub-paths); everything else speaks the Messages API.
 */
export function errorShapeOf(target: string): ErrorShape {
  const end = target.search(/[?#]/);
  const pathname = end < 0 ? target : target.slice(0, end);
  const openAi = pathname.endsWith('/responses') || pathname.includes('/responses/') || pathname.endsWith('/chat/completions');
  return openAi ? 'openai' : 'anthropic';
}

/**
 * Answers `status` with an API-shaped error body. Returns false, sending nothing, when the
 * response already started or is gone: a status line cannot be taken back.
 */
export function sendApiError(res: ErrorSink, status: number, type: string, message: string): boolean {
  return sendErrorBody(res, status, apiErrorBody(type, message));
}

/** What a proxy-side error says, in either shape: its type in each API's words, and a stable code. */
export interface ShapedError {
  readonly anthropicType: string;
  readonly openAiType: string;
  readonly code: string;
  readonly message: string;
}

/** The body of `error` in `shape`: `anthropicType` in the Messages shape, `openAiType` and `code` in the OpenAI one. */
export function shapedErrorBody(shape: ErrorShape, error: ShapedError): Buffer {
  return shape === 'openai' ? openAiErrorBody(error.openAiType, error.message, error.code) : apiErrorBody(error.anthropicType, error.message);
}

/**
 * Answers `status` with `body` as JSON (and `extra` headers). Returns false, sending nothing,
 * when the response already started or is gone.
 */
export function sendErrorBody(res: ErrorSink, status: number, body: Buffer, extra?: OutgoingHttpHeaders): boolean {
  return res.answerBytes(status, { ...extra, 'content-type': 'application/json', 'content-length': String(body.length) }, body);
}
