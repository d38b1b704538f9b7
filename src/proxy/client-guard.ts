/**
 * Who may use the proxy at all: an agent on this machine, never a web page. The proxy binds
 * 127.0.0.1, but a page in the user's browser can still reach it, two ways:
 *
 * - DNS rebinding: a name of the attacker's first resolves to the attacker's server, then to
 *   127.0.0.1. The page's requests then reach the proxy as same-origin ones, and it reads the
 *   answers; but they arrive with the attacker's name in `Host`.
 * - A plain cross-origin request to `http://127.0.0.1:<port>`: a `text/plain` POST needs no CORS
 *   preflight, so it is sent (the page cannot read the answer, but the proxy would latch epochs,
 *   write elided files and spend the user's credentials upstream). It arrives with `Origin`.
 *
 * So every request must name a loopback host with the proxy's own port, and carry no `Origin`.
 * The agents ctxshed serves (Claude Code, Codex, the Anthropic and OpenAI SDKs on Node) send
 * `Host: 127.0.0.1:<port>` and no `Origin` at all: browsers send `Origin` on every POST, cross-
 * origin or not, and on every CORS request; nothing else does. Pure: facts in, a decision out.
 */
import type { RefusalReason } from '../core/refusal-reasons.js';
import { isLoopbackHost, portOfHost } from './loopback.js';

/** The facts of a request that decide whether the proxy serves it. */
export interface ClientFacts {
  /** The `Host` header, if any. */
  readonly host: string | undefined;
  /** The `Origin` header, if any (an empty one counts: it is present). */
  readonly origin: string | undefined;
  /** The port the request arrived on: the one ctxshed listens on. */
  readonly port: number | undefined;
}

/** Served, or refused with a closed reason and a message for the client. */
export type ClientAccess = { readonly kind: 'allowed' } | { readonly kind: 'refused'; readonly reason: RefusalReason; readonly message: string };

/** The port a Host without one names: HTTP's default (RFC 9110 §4.2.1). */
const HTTP_DEFAULT_PORT = 80;

/** Decides whether a request may be served: loopback Host with the proxy's port, and no Origin. */
export function decideClientAccess(facts: ClientFacts): ClientAccess {
  if (!namesThisProxy(facts.host, facts.port)) {
    const message = `refused: Host ${JSON.stringify(facts.host ?? '')} does not name this proxy (a loopback name such as 127.0.0.1 with port ${facts.port ?? '?'}); a web page reaching it through DNS rebinding arrives so. ${REFUSAL_HINT}`;
    return { kind: 'refused', reason: 'foreign_host', message };
  }
  if (facts.origin !== undefined) {
    const message = `refused: the request carries Origin ${JSON.stringify(facts.origin)}, so it comes from a web page, and ctxshed serves only agents on this machine. ${REFUSAL_HINT}`;
    return { kind: 'refused', reason: 'browser_origin', message };
  }
  return { kind: 'allowed' };
}

const REFUSAL_HINT = 'Nothing was forwarded.';

function namesThisProxy(host: string | undefined, port: number | undefined): boolean {
  if (host === undefined || !isLoopbackHost(host)) return false;
  const named = portOfHost(host);
  if (named === 'invalid') return false;
  return (named ?? HTTP_DEFAULT_PORT) === port;
}
