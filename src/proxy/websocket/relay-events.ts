/**
 * The answer to one `response.create`, put on the socket: each SSE event of a streamed answer as
 * one text frame holding the event's `data` (the WebSocket reference sends the same events as the
 * HTTP stream), or an HTTP error as the `error` event the WebSocket mode sends
 * (`{"type":"error","status":…,"error":{…}}`, the API's error object as it came).
 */
import { createSseParser } from '../../core/sse-parser.js';
import type { EdgeResponse } from '../edge.js';

/** How an answer ended on the socket. */
export type RelayOutcome =
  /** The stream ended with `response.completed`: its id, and its output items in order. */
  | { readonly kind: 'completed'; readonly id: string; readonly output: readonly unknown[] }
  /** It ended otherwise (`response.failed`, `error`, an HTTP error): nothing to remember. */
  | { readonly kind: 'ended' }
  /** The upstream's body was cut off mid-way: the socket must close. */
  | { readonly kind: 'cut' };

/** Where events go: one text frame each. */
export type SendText = (text: string) => Promise<void>;

/** The most of an error body read into an `error` event. */
const MAX_ERROR_BODY_BYTES = 1024 * 1024;

/** Relays `response` to the socket. Never rejects. */
export async function relayEvents(response: EdgeResponse, send: SendText): Promise<RelayOutcome> {
  const type = String(response.headers['content-type'] ?? '');
  if (response.status >= 200 && response.status < 300 && type.startsWith('text/event-stream')) return relayStream(response.body, send);
  const body = await readSome(response.body);
  if (body === undefined) return { kind: 'cut' };
  await send(errorEventOf(response.status, body));
  return { kind: 'ended' };
}

async function relayStream(body: AsyncIterable<Uint8Array>, send: SendText): Promise<RelayOutcome> {
  const parser = createSseParser();
  const output: unknown[] = [];
  let completed: string | undefined;
  try {
    for await (const chunk of body) {
      for (const event of parser.push(chunk)) {
        if (event.data === '[DONE]') continue;
        const done = readEvent(event.data, output);
        if (done !== undefined) completed = done;
        await send(event.data);
      }
    }
  } catch {
    return { kind: 'cut' };
  }
  return completed === undefined ? { kind: 'ended' } : { kind: 'completed', id: completed, output: output.filter((item) => item !== undefined) };
}

/**
 * Takes what the session remembers from one event: an `output_item.done` item at its index, as
 * the client keeps it; the id of `response.completed`.
 */
function readEvent(data: string, output: unknown[]): string | undefined {
  let event: unknown;
  try {
    event = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (typeof event !== 'object' || event === null) return undefined;
  const e = event as Record<string, unknown>;
  if (e['type'] === 'response.output_item.done' && typeof e['output_index'] === 'number') output[e['output_index']] = e['item'];
  if (e['type'] !== 'response.completed') return undefined;
  const response = e['response'];
  if (typeof response !== 'object' || response === null) return undefined;
  const id = (response as Record<string, unknown>)['id'];
  return typeof id === 'string' ? id : undefined;
}

/** The `error` event for an HTTP error: the API's `error` object when the body has one, else one made of the body's text. */
export function errorEventOf(status: number, body: Buffer): string {
  let error: unknown;
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    if (typeof parsed === 'object' && parsed !== null) error = (parsed as Record<string, unknown>)['error'];
  } catch {
    error = undefined;
  }
  if (typeof error !== 'object' || error === null) {
    error = { type: status >= 500 ? 'api_error' : 'invalid_request_error', code: null, message: body.toString('utf8').slice(0, 2000) || `HTTP ${status}` };
  }
  return JSON.stringify({ type: 'error', status, error });
}

/** The body, up to MAX_ERROR_BODY_BYTES; undefined when it was cut off. */
async function readSome(body: AsyncIterable<Uint8Array>): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      if (size < MAX_ERROR_BODY_BYTES) chunks.push(Buffer.from(chunk));
      size += chunk.length;
    }
  } catch {
    return undefined;
  }
  return Buffer.concat(chunks).subarray(0, MAX_ERROR_BODY_BYTES);
}
