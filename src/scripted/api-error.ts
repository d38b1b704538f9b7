/**
 * The Messages API's errors, in the shape its "Errors" page gives
 * (https://platform.claude.com/docs/en/api/errors): an HTTP status, a JSON body
 * `{"type":"error","error":{"type":...,"message":...},"request_id":"req_..."}` and the same id in
 * a `request-id` header. The client's retry and compaction logic reads `error.type` and the
 * message's wording, so the wording below is the API's own.
 */
import { apiId } from './message.js';
import type { JsonReply } from './reply.js';

/** The id the API gives the n-th request, shaped like the API's `req_…` ids. */
export function requestIdOf(index: number): string {
  return apiId('req', index);
}

/** An error reply; `requestId` adds the body's `request_id` and the `request-id` header. */
export function errorReply(status: number, type: string, message: string, requestId?: string): JsonReply {
  if (requestId === undefined) return { kind: 'json', status, body: { type: 'error', error: { type, message } } };
  return { kind: 'json', status, headers: { 'request-id': requestId }, body: { type: 'error', error: { type, message }, request_id: requestId } };
}

/** The 400 a model call over the context window gets: "prompt is too long: N tokens > M maximum". */
export function promptTooLongReply(tokens: number, maxTokens: number, requestId: string): JsonReply {
  return errorReply(400, 'invalid_request_error', `prompt is too long: ${tokens} tokens > ${maxTokens} maximum`, requestId);
}
