/**
 * The closed list of reasons the proxy refuses a request outright: answered 403 by ctxshed itself,
 * never forwarded, never seen by the epoch engine. Each one is documented in docs/reasons.md
 * ("Refused requests"); the wire record's `refused` field names it.
 */
export const REFUSAL_REASONS = {
  foreign_host:
    "The Host header does not name this machine's loopback (localhost, 127.0.0.1, [::1]) with the port ctxshed listens on: a web page reaching the proxy through DNS rebinding arrives so.",
  browser_origin:
    'The request carries an Origin header, whatever its value (null included): only a web browser sends one, and no agent ctxshed serves is a web page.',
  websocket_upgrade:
    'A WebSocket upgrade (Codex tries ws://<base>/responses first): ctxshed relays HTTP only and answers 426 Upgrade Required, on which Codex uses HTTP; nothing is forwarded.',
} as const;

/** Why a request was refused without being forwarded. */
export type RefusalReason = keyof typeof REFUSAL_REASONS;
