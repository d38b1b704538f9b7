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
 * - A request a browser sends without `Origin` (an `<img>`, a link followed, a form's GET): it carries
 *   `Sec-Fetch-Site: cross-site` (or `same-site` from a page on another loopback port). Against an
 *   `--upstream` that adds credentials itself, a forwarded GET would be a forgery channel.
 *
 * So every request must name a loopback host, on any port (the name is what stops DNS rebinding;
 * the port adds nothing to it, and an `ssh -L` forward or a `docker -p` mapping to another port
 * passes the Host it was given), carry no `Origin`, and no `Sec-Fetch-Site` other than
 * `same-origin` or `none`. The agents ctxshed serves (Claude Code, Codex, the Anthropic and OpenAI
 * SDKs on Node) send `Host: 127.0.0.1:<port>` and neither header: browsers send `Origin` on every
 * POST, cross-origin or not, and on every CORS request, and `Sec-Fetch-Site` on every request from
 * a page; nothing else does. Pure: facts in, a decision out.
 */
import type { RefusalReason } from '../core/refusal-reasons.js';
import { isLoopbackHost, portOfHost } from './loopback.js';

/** The facts of a request that decide whether the proxy serves it. */
export interface ClientFacts {
  /** The `Host` header, if any. */
  readonly host: string | undefined;
  /** The `Origin` header, if any (an empty one counts: it is present). */
  readonly origin: string | undefined;
  /** The `Sec-Fetch-Site` header, if any. */
  readonly fetchSite?: string | undefined;
  /**
   * An owner rule is on (owner-rule.ts): the proxy may be bound beyond loopback and named by any
   * host, and each request is served only its owner's state; Origin and Sec-Fetch-Site still refuse.
   */
  readonly anyHost?: boolean;
}

/** Served, or refused with a closed reason and a message for the client. */
export type ClientAccess = { readonly kind: 'allowed' } | { readonly kind: 'refused'; readonly reason: RefusalReason; readonly message: string };

/** The `Sec-Fetch-Site` values of a request a page did not make for another site: its own origin, or the user (a typed URL). */
const OWN_FETCH_SITES = new Set(['same-origin', 'none']);

/** Decides whether a request may be served: a loopback Host on any port, no Origin, and no cross-site fetch. */
export function decideClientAccess(facts: ClientFacts): ClientAccess {
  if (facts.anyHost !== true && !namesLoopback(facts.host)) {
    const message = `refused: Host ${JSON.stringify(facts.host ?? '')} does not name this machine's loopback (localhost, 127.0.0.1, [::1]); a web page reaching it through DNS rebinding arrives so. ${REFUSAL_HINT}`;
    return { kind: 'refused', reason: 'foreign_host', message };
  }
  if (facts.origin !== undefined) {
    const message = `refused: the request carries Origin ${JSON.stringify(facts.origin)}, so it comes from a web page, and ctxshed serves only agents on this machine. ${REFUSAL_HINT}`;
    return { kind: 'refused', reason: 'browser_origin', message };
  }
  if (facts.fetchSite !== undefined && !OWN_FETCH_SITES.has(facts.fetchSite.trim().toLowerCase())) {
    const message = `refused: the request carries Sec-Fetch-Site ${JSON.stringify(facts.fetchSite)}, so a web page of another site made it, and ctxshed serves only agents on this machine. ${REFUSAL_HINT}`;
    return { kind: 'refused', reason: 'browser_fetch_site', message };
  }
  return { kind: 'allowed' };
}

const REFUSAL_HINT = 'Nothing was forwarded.';

function namesLoopback(host: string | undefined): boolean {
  return host !== undefined && isLoopbackHost(host) && portOfHost(host) !== 'invalid';
}
