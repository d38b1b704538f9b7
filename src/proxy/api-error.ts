/** Proxy-side failures, answered in the Messages API's own error shape. */
import type { ServerResponse } from 'node:http';
import { outwardMessage } from '../errors.js';

/**
 * `{"type":"error","error":{"type":...,"message":...}}`, the shape the API and its SDKs parse, so
 * the client reports (and retries) a proxy failure like any other API error. The message leaves
 * the program here, so it says ctxshed (once).
 */
export function apiErrorBody(type: string, message: string): Buffer {
  return Buffer.from(JSON.stringify({ type: 'error', error: { type, message: outwardMessage(message) } }), 'utf8');
}

/**
 * Answers `status` with an API-shaped error body. Returns false, sending nothing, when the
 * response already started or is gone: a status line cannot be taken back.
 */
export function sendApiError(
  res: ServerResponse,
  status: number,
  type: string,
  message: string,
): boolean {
  if (res.headersSent || res.writableEnded || res.destroyed) return false;
  const body = apiErrorBody(type, message);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(body.length),
  });
  res.end(body);
  return true;
}
