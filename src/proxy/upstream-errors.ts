/** What can go wrong between the proxy and the upstream: stable codes and their API-shaped text. */
import { errorText } from '../errors.js';

/** Stable codes of what went wrong; match on these, not on messages. */
export type ForwardErrorCode =
  | 'UPSTREAM_CONNECT_FAILED'
  | 'UPSTREAM_CONNECT_TIMEOUT'
  | 'UPSTREAM_DNS_FAILED'
  | 'UPSTREAM_TLS_FAILED'
  | 'UPSTREAM_RESET'
  | 'UPSTREAM_BAD_RESPONSE'
  | 'UPSTREAM_REQUEST_FAILED'
  | 'UPSTREAM_HEADERS_TIMEOUT'
  | 'UPSTREAM_IDLE_TIMEOUT'
  | 'UPSTREAM_ABORTED'
  | 'CLIENT_CLOSED'
  | 'ABORTED';

/** A failure of the exchange, as recorded in the result. */
export interface ForwardError {
  readonly code: ForwardErrorCode;
  /** What failed: `<what failed>: <detail>` (api-error.ts adds `ctxshed:` as it goes to the client). */
  readonly message: string;
}

/** A proxy-side failure before response headers: its code, the status to answer and the text. */
export interface UpstreamFailure extends ForwardError {
  readonly status: 502 | 504;
}

/** Names a failure to reach the upstream before it answered, for the 502/504 the client gets. */
export function classifyUpstreamError(err: unknown, origin: string): UpstreamFailure {
  const code = errorCode(err);
  const failure = (kind: ForwardErrorCode, status: 502 | 504, what: string): UpstreamFailure => ({
    code: kind,
    status,
    message: `${what}: ${errorText(err)}`,
  });
  if (code === 'ECONNREFUSED' || code === 'ENETUNREACH' || code === 'EHOSTUNREACH' || code === 'EADDRNOTAVAIL') {
    return failure('UPSTREAM_CONNECT_FAILED', 502, `could not connect to upstream ${origin}`);
  }
  if (code === 'ETIMEDOUT') return failure('UPSTREAM_CONNECT_TIMEOUT', 504, `connecting to upstream ${origin} timed out`);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_FAIL' || code === 'EAI_NODATA') {
    return failure('UPSTREAM_DNS_FAILED', 502, `could not resolve upstream ${origin}`);
  }
  if (code === 'EPROTO' || /^(ERR_SSL_|ERR_TLS_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_)/.test(code)) {
    return failure('UPSTREAM_TLS_FAILED', 502, `TLS with upstream ${origin} failed`);
  }
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ECONNABORTED') {
    return failure('UPSTREAM_RESET', 502, `upstream ${origin} closed the connection before responding`);
  }
  if (code.startsWith('HPE_')) return failure('UPSTREAM_BAD_RESPONSE', 502, `upstream ${origin} sent an invalid HTTP response`);
  return failure('UPSTREAM_REQUEST_FAILED', 502, `request to upstream ${origin} failed`);
}

/** A pooled keep-alive socket the server closed while idle. */
export function isStaleSocketError(err: unknown): boolean {
  const code = errorCode(err);
  return code === 'ECONNRESET' || code === 'EPIPE';
}

/** The `code` of a Node system error, or ''. */
export function errorCode(err: unknown): string {
  if (typeof err !== 'object' || err === null || !('code' in err)) return '';
  return typeof err.code === 'string' ? err.code : '';
}
