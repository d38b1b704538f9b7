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
  /** How many Host lines the request carried (header-lines.ts; node keeps only the first); absent: one, or none without `host`. */
  readonly hostLines?: number;
  /** The request-target as sent: a path, or the absolute form (`http://host/path`), whose authority then stands for Host. */
  readonly target?: string;
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

/** Served, or refused with a closed reason, a message for the client and its status (403 unless named). */
export type ClientAccess =
  | { readonly kind: 'allowed' }
  | { readonly kind: 'refused'; readonly reason: RefusalReason; readonly message: string; readonly status?: 400 | 421 };

/** The `Sec-Fetch-Site` values of a request a page did not make for another site: its own origin, or the user (a typed URL). */
const OWN_FETCH_SITES = new Set(['same-origin', 'none']);

/**
 * Decides whether a request may be served: one Host, and a valid one (whatever the owner rule);
 * no absolute-form target naming another host; then a loopback Host on any port, no Origin, and
 * no cross-site fetch.
 */
export function decideClientAccess(facts: ClientFacts): ClientAccess {
  const malformed = malformedHead(facts);
  if (malformed !== undefined) return malformed;
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

// RFC 9112 §3.2.2: the absolute form, scheme "://" authority path.
const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\//i;
/** The highest TCP port: a Host naming a higher one names nothing. */
const MAX_PORT = 65_535;

/**
 * A request the proxy will not read one way only (RFC 9112 §3.2: a second Host line, or a Host
 * that is not one, gets a 400), or one addressed to another server (§3.2.2: in absolute form the
 * target's authority stands for Host, and ctxshed is no forward proxy: 421). Whatever the owner rule.
 */
function malformedHead(facts: ClientFacts): ClientAccess | undefined {
  const lines = facts.hostLines ?? (facts.host === undefined ? 0 : 1);
  if (lines > 1) {
    const message = `refused: the request carries ${lines} Host headers; one request names one host (RFC 9112 §3.2). ${REFUSAL_HINT}`;
    return { kind: 'refused', reason: 'invalid_host', message, status: 400 };
  }
  // Without an owner rule a Host that is no host is no loopback name either: foreign_host says so below.
  if (facts.host !== undefined && (portOutOfRange(facts.host) || (facts.anyHost === true && !isValidHost(facts.host)))) {
    const message = `refused: Host ${JSON.stringify(facts.host)} is not a host and port (RFC 9112 §3.2). ${REFUSAL_HINT}`;
    return { kind: 'refused', reason: 'invalid_host', message, status: 400 };
  }
  const target = facts.target;
  if (target === undefined || !ABSOLUTE_FORM.test(target)) return undefined;
  const authority = authorityOf(target);
  if (authority !== undefined && isLoopbackHost(authority) && isValidHost(authority)) return undefined;
  const message = `refused: the request-target ${JSON.stringify(target.slice(0, 200))} names another server; ctxshed is no forward proxy and sends requests only to its upstream. ${REFUSAL_HINT}`;
  return { kind: 'refused', reason: 'absolute_target', message, status: 421 };
}

// RFC 3986 §3.2.2: a reg-name or IPv4 address is unreserved, pct-encoded and sub-delims characters; an IP literal is in brackets.
const HOST_NAME = /^(?:\[[0-9a-f:.]+\]|[a-z0-9\-._~!$&'()*+,;=%]+)(?::[0-9]*)?$/i;

/** Whether a Host value is `host[:port]`, the host a name, an address or an IP literal, the port in range. */
function isValidHost(host: string): boolean {
  return HOST_NAME.test(host) && portOfHost(host) !== 'invalid' && !portOutOfRange(host);
}

/** Whether a Host names a port past 65535 (localhost:99999): a port no socket has. */
function portOutOfRange(host: string): boolean {
  const port = portOfHost(host);
  return typeof port === 'number' && port > MAX_PORT;
}

/** The authority of an absolute-form target (as written, port included), or undefined when it has none or does not parse. */
function authorityOf(target: string): string | undefined {
  const rest = target.slice(target.indexOf('://') + 3);
  const end = rest.search(/[/?#]/);
  const authority = end < 0 ? rest : rest.slice(0, end);
  return authority === '' || authority.includes('@') ? undefined : authority;
}
