/**
 * The message of a Messages API `invalid_request_error` body:
 * `{"type":"error","error":{"type":"invalid_request_error","message":"..."}}`. The refusals ctxshed
 * answers itself (a prompt too long, a thinking block that failed its prefix check) are both this
 * shape, told apart by the message's own wording. Pure: the body's text in.
 */
import { isRecord } from '../errors.js';

/** The error's message, or undefined for any other body (not JSON, another error type, no message). */
export function readInvalidRequestMessage(text: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(value) || value['type'] !== 'error') return undefined;
  const error = value['error'];
  if (!isRecord(error) || error['type'] !== 'invalid_request_error') return undefined;
  const message = error['message'];
  return typeof message === 'string' ? message : undefined;
}
