/** A request as the scripted Messages API received it, and what kind of call it is. */
import type { IncomingHttpHeaders } from 'node:http';

/** One request, byte-exact: `body` holds the bytes as they arrived, never re-encoded. */
export interface ReceivedRequest {
  readonly method: string;
  /** The raw request target, query included: `/v1/messages?beta=true`. */
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The header lines as sent, name and value alternating, case and order kept. */
  readonly rawHeaders: readonly string[];
  readonly body: Buffer;
  /** Arrival order across every request the server saw, CONNECT attempts included. */
  readonly index: number;
}

/** The path of a model call. */
export const MESSAGES_PATH = '/v1/messages';
/** The path of a token count. */
export const COUNT_TOKENS_PATH = '/v1/messages/count_tokens';

/** The request target without its query string. */
export function pathnameOf(req: Pick<ReceivedRequest, 'path'>): string {
  const q = req.path.indexOf('?');
  return q === -1 ? req.path : req.path.slice(0, q);
}

/** True for a model call: `POST /v1/messages` with any query. */
export function isMessagesRequest(req: Pick<ReceivedRequest, 'method' | 'path'>): boolean {
  return req.method === 'POST' && pathnameOf(req) === MESSAGES_PATH;
}

/** True for `POST /v1/messages/count_tokens` with any query. */
export function isCountTokensRequest(req: Pick<ReceivedRequest, 'method' | 'path'>): boolean {
  return req.method === 'POST' && pathnameOf(req) === COUNT_TOKENS_PATH;
}

/** The request body parsed as JSON, or `undefined` when it is not JSON. */
export function parseRequestBody(req: Pick<ReceivedRequest, 'body'>): unknown {
  try {
    return JSON.parse(req.body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
