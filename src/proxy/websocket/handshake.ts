/**
 * The server side of the WebSocket opening handshake (RFC 6455 §4.2): check the client's upgrade
 * request, and the 101 answer that accepts it. No extension is negotiated: `permessage-deflate`
 * would have the proxy inflate every frame, and a server that names no extension in its answer
 * has declined them all (RFC 6455 §9.1), so the client sends plain frames.
 */
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** The GUID every `Sec-WebSocket-Accept` is derived with (RFC 6455 §1.3). */
const ACCEPT_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/** The only protocol version RFC 6455 defines. */
const WEBSOCKET_VERSION = '13';

/** A checked upgrade: the accept value to answer with, or why the request is not a valid one. */
export type UpgradeCheck = { readonly kind: 'valid'; readonly accept: string } | { readonly kind: 'invalid'; readonly detail: string };

/** The `Sec-WebSocket-Accept` for a client's `Sec-WebSocket-Key` (RFC 6455 §4.2.2 step 5.4). */
export function acceptKeyOf(key: string): string {
  return createHash('sha1').update(`${key}${ACCEPT_GUID}`).digest('base64');
}

/** Checks an upgrade request's headers (RFC 6455 §4.2.1): a GET that asks for `websocket`, version 13, with a 16-byte key. */
export function checkUpgrade(method: string | undefined, headers: IncomingHttpHeaders): UpgradeCheck {
  if (method !== 'GET') return { kind: 'invalid', detail: `an upgrade must be a GET, not ${String(method)}` };
  if (!tokensOf(headers.upgrade).includes('websocket')) return { kind: 'invalid', detail: 'Upgrade does not name websocket' };
  if (!tokensOf(headers.connection).includes('upgrade')) return { kind: 'invalid', detail: 'Connection does not name Upgrade' };
  if (headers['sec-websocket-version'] !== WEBSOCKET_VERSION) return { kind: 'invalid', detail: 'Sec-WebSocket-Version is not 13' };
  const key = headers['sec-websocket-key'];
  if (typeof key !== 'string' || Buffer.from(key, 'base64').length !== 16) return { kind: 'invalid', detail: 'Sec-WebSocket-Key is not 16 bytes in base64' };
  return { kind: 'valid', accept: acceptKeyOf(key) };
}

/** The 101 answer that accepts the upgrade, no subprotocol and no extension. */
export function switchingProtocols(accept: string): string {
  return ['HTTP/1.1 101 Switching Protocols', 'Upgrade: websocket', 'Connection: Upgrade', `Sec-WebSocket-Accept: ${accept}`, '', ''].join('\r\n');
}

/** A header's comma-separated tokens, lower case. */
function tokensOf(value: string | string[] | undefined): string[] {
  const joined = Array.isArray(value) ? value.join(',') : (value ?? '');
  return joined
    .split(',')
    .map((t) => t.trim().toLowerCase())
    .filter((t) => t !== '');
}
