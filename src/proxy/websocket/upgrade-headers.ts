/**
 * The headers each `response.create` is forwarded with: the upgrade request's own (authorization,
 * Codex's session and turn headers), less what belonged to the WebSocket handshake, plus what a
 * streamed JSON POST carries.
 */
import type { IncomingHttpHeaders } from 'node:http';

/** Handshake headers that say nothing to an HTTP upstream (RFC 6455 §4.1), and the length the new body gets. */
const HANDSHAKE_HEADERS = new Set([
  'connection',
  'upgrade',
  'sec-websocket-key',
  'sec-websocket-version',
  'sec-websocket-extensions',
  'sec-websocket-protocol',
  'content-length',
  'content-type',
  'accept',
]);

/** The `OpenAI-Beta` feature that asks for the WebSocket transport (Codex 0.171.0: `responses_websockets=2026-02-06`). */
const WEBSOCKET_BETA = /^responses_websockets(=|$)/;

/** The headers of the POST made for one message, as a header object and as raw name/value pairs in their order. */
export function postHeadersOf(rawHeaders: readonly string[], bodyBytes: number): { headers: IncomingHttpHeaders; rawHeaders: string[] } {
  const raw: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] ?? '';
    let value = rawHeaders[i + 1] ?? '';
    const lower = name.toLowerCase();
    if (HANDSHAKE_HEADERS.has(lower)) continue;
    if (lower === 'openai-beta') {
      value = value
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v !== '' && !WEBSOCKET_BETA.test(v))
        .join(', ');
      if (value === '') continue;
    }
    raw.push(name, value);
  }
  raw.push('content-type', 'application/json', 'accept', 'text/event-stream', 'content-length', String(bodyBytes));
  const headers: IncomingHttpHeaders = {};
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] ?? '').toLowerCase();
    const value = raw[i + 1] ?? '';
    const had = headers[name];
    headers[name] = had === undefined ? value : `${String(had)}, ${value}`;
  }
  return { headers, rawHeaders: raw };
}
