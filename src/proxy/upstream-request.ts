/** The request as it goes upstream: its target path and its headers. */
import type { OutgoingHttpHeaders } from 'node:http';
import { rewriteAcceptEncoding } from './accept-encoding.js';

/** The upstream request-target: its base path without trailing slashes, then the client's target. */
export function joinUpstreamPath(upstream: URL, path: string): string {
  const base = upstream.pathname.replace(/\/+$/, '');
  // RFC 9112 §3.2.2: a server must accept the absolute form too; keep only its path and query.
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) {
    const url = new URL(path);
    return base + url.pathname + url.search;
  }
  return base + (path.startsWith('/') ? path : `/${path}`);
}

/**
 * The headers as sent upstream: `content-length` is the body's real length (RFC 9112 §6.2;
 * the body may have been rewritten), and accept-encoding admits only codings the tap decodes.
 */
export function upstreamHeaders(headers: OutgoingHttpHeaders, body: Buffer | undefined): OutgoingHttpHeaders {
  const out = Object.create(null) as OutgoingHttpHeaders;
  let sawAcceptEncoding = false;
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    if (lower === 'content-length' || lower === 'transfer-encoding') continue;
    if (lower === 'accept-encoding') {
      sawAcceptEncoding = true;
      out[name] = rewriteAcceptEncoding(typeof value === 'number' ? String(value) : value);
      continue;
    }
    out[name] = value;
  }
  if (!sawAcceptEncoding) out['accept-encoding'] = rewriteAcceptEncoding(undefined);
  if (body !== undefined) out['content-length'] = String(body.length);
  return out;
}
