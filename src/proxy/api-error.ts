/** Proxy-side failures, answered in the error shape of the API the client speaks. */
import type { OutgoingHttpHeaders } from 'node:http';
import { dialectOfTarget, MESSAGES_API, type ApiDialect, type ShapedError } from '../core/index.js';
import type { Reply } from './reply.js';

export type { ShapedError } from '../core/index.js';

/** What an error answer needs of the response: the request's reply (reply.ts). */
export type ErrorSink = Pick<Reply, 'answerBytes'>;

/** Which error shape a client parses: its dialect's (the Messages API's by default). */
export type ErrorShape = Pick<ApiDialect, 'errorBody'>;

/**
 * `{"type":"error","error":{"type":...,"message":...}}`, the Messages API's shape (the default),
 * for a failure that names its type alone.
 */
export function apiErrorBody(type: string, message: string): Buffer {
  return shapedErrorBody(MESSAGES_API, { anthropicType: type, openAiType: type, code: type, message });
}

/** The shape a request's client expects, from its path: the dialect that claims it (dialects/registry.ts). */
export function errorShapeOf(target: string): ErrorShape {
  return dialectOfTarget(target);
}

/**
 * Answers `status` with an API-shaped error body. Returns false, sending nothing, when the
 * response already started or is gone: a status line cannot be taken back.
 */
export function sendApiError(res: ErrorSink, status: number, type: string, message: string): boolean {
  return sendErrorBody(res, status, apiErrorBody(type, message));
}

/** The body of `error` in `shape`, as its dialect writes it. */
export function shapedErrorBody(shape: ErrorShape, error: ShapedError): Buffer {
  return Buffer.from(shape.errorBody(error), 'utf8');
}

/**
 * Answers `status` with `body` as JSON (and `extra` headers). Returns false, sending nothing,
 * when the response already started or is gone.
 */
export function sendErrorBody(res: ErrorSink, status: number, body: Buffer, extra?: OutgoingHttpHeaders): boolean {
  return res.answerBytes(status, { ...extra, 'content-type': 'application/json', 'content-length': String(body.length) }, body);
}
