/** Which headers a proxy must not forward, and the forwardable rest of a header list. */
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';

/**
 * Headers that describe one connection, not the message (RFC 9110 §7.6.1: Connection,
 * Proxy-Connection, Keep-Alive, TE, Transfer-Encoding, Upgrade; RFC 2616 §13.5.1 adds
 * Proxy-Authenticate, Proxy-Authorization and Trailer(s)). Lower case.
 */
export const HOP_BY_HOP_HEADERS: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'proxy-authenticate',
  'proxy-authorization',
]);

/** Options of `forwardableHeaders`. */
export interface ForwardableHeadersOptions {
  /** Keep `content-length`: for a response whose bytes pass through unchanged. */
  readonly keepContentLength?: boolean;
}

/**
 * The headers to send on: drops hop-by-hop headers, any header named in `Connection`, `host`
 * (the next hop sets its own) and `content-length` (the sender recomputes it). Given `rawHeaders`
 * it keeps each name's casing and the order; repeated names become one array value, which Node
 * sends back as repeated lines.
 */
export function forwardableHeaders(raw: IncomingHttpHeaders | readonly string[], opts: ForwardableHeadersOptions = {}): OutgoingHttpHeaders {
  const pairs = toPairs(raw);
  const drop = new Set(HOP_BY_HOP_HEADERS);
  drop.add('host');
  if (opts.keepContentLength !== true) drop.add('content-length');
  // RFC 9110 §7.6.1: a proxy removes every header the Connection header names, then Connection.
  for (const [name, value] of pairs) {
    if (name.toLowerCase() !== 'connection') continue;
    for (const token of value.split(',')) {
      const named = token.trim().toLowerCase();
      if (named !== '') drop.add(named);
    }
  }
  // A null prototype, so a header literally named `__proto__` stays a header.
  const out = Object.create(null) as OutgoingHttpHeaders;
  const keyOf = new Map<string, string>();
  for (const [name, value] of pairs) {
    const lower = name.toLowerCase();
    if (drop.has(lower)) continue;
    const key = keyOf.get(lower);
    if (key === undefined) {
      keyOf.set(lower, name);
      out[name] = value;
      continue;
    }
    const previous = out[key];
    out[key] = Array.isArray(previous) ? [...previous, value] : [String(previous), value];
  }
  return out;
}

function toPairs(raw: IncomingHttpHeaders | readonly string[]): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  if (isRawHeaders(raw)) {
    for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([raw[i] ?? '', raw[i + 1] ?? '']);
    return pairs;
  }
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const one of value) pairs.push([name, one]);
    else pairs.push([name, value]);
  }
  return pairs;
}

function isRawHeaders(raw: IncomingHttpHeaders | readonly string[]): raw is readonly string[] {
  return Array.isArray(raw);
}
