/**
 * The closed list of reasons the proxy refuses a request outright: answered by ctxshed itself (403 to a web page, 400 or 421 to a request-target or Host it will not read, 408 or 429 to a body it will not hold),
 * never forwarded, never seen by the epoch engine. Each one is documented in docs/reasons.md
 * ("Refused requests"); the wire record's `refused` field names it.
 */
export const REFUSAL_REASONS = {
  foreign_host:
    "The Host header does not name this machine's loopback (localhost, 127.0.0.1, [::1]), on whatever port: a web page reaching the proxy through DNS rebinding arrives so.",
  invalid_host:
    'The request carries more than one Host header, or a Host that is not a host (a port over 65535, a stray character): RFC 9112 §3.2 asks for a 400, and a request its parsers could read two ways is never forwarded.',
  absolute_target:
    "The request-target is in absolute form (POST http://host/path, as a client sends to a forward proxy) and names another host than this machine's loopback: ctxshed is no forward proxy, so it answers 421 Misdirected Request and forwards nothing.",
  browser_origin:
    'The request carries an Origin header, whatever its value (null included): only a web browser sends one, and no agent ctxshed serves is a web page.',
  browser_fetch_site:
    'The request carries Sec-Fetch-Site cross-site or same-site (anything but same-origin or none): a web page of another site made it, an <img> or a link followed, which sends no Origin.',
  no_owner:
    "An owner rule is on (--owner-from credential or --owner-header) and the request names no owner: no credential, no such header, or one of them twice. Answered 401; never forwarded with anyone else's state.",
  body_timeout:
    'The request body stalled (no byte for the body idle timeout, 60 s by default) or did not arrive whole within the body deadline (300 s by default). Answered 408, and the connection closed.',
  body_too_slow:
    'The request body came at under the minimum rate (32 KiB a second by default) over a whole rate window (10 s by default): a drip-feed that would hold its bytes of the body budget for as long as it lasts. Answered 408, and the connection closed.',
  body_budget:
    "The request bodies in flight across connections would have passed ctxshed's cap (128 MiB by default), or a body past its share (8 MiB by default) would have eaten the reserve kept for the others. Answered 429 with retry-after, the bytes dropped, and the connection closed.",
  websocket_upgrade:
    'A WebSocket upgrade on a path other than the Responses API (.../responses), a Messages route included: only the Responses API has a WebSocket mode, so ctxshed answers 426 Upgrade Required; nothing is forwarded.',
  websocket_handshake:
    'A WebSocket upgrade on the Responses path whose handshake is not valid (not a GET, no Upgrade: websocket or Connection: Upgrade, a version other than 13, a key that is not 16 bytes): answered 400; nothing is forwarded.',
} as const;

/** Why a request was refused without being forwarded. */
export type RefusalReason = keyof typeof REFUSAL_REASONS;
