/**
 * Who may reach the proxy's own routes (`/_ctxshed/`): a client on this machine, asking for this
 * machine by a loopback name. The proxy binds 127.0.0.1 only; these checks hold even if that
 * changes, and the Host check stops a web page from reaching the routes through DNS rebinding (a
 * name of the attacker's that resolves to 127.0.0.1 still arrives with that name in Host).
 */

/** Whether a socket's remote address is a loopback one: 127.0.0.0/8, ::1, or 127/8 mapped into IPv6. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  if (address === '::1') return true;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return isLoopbackIPv4(v4);
}

// RFC 9110 §7.2: Host is uri-host [":" port]; an IPv6 literal is in brackets.
const HOST_PATTERN = /^(?:\[([^\]]*)\]|([^:[\]]*))(?::[0-9]{1,5})?$/;

/**
 * Whether a Host header names this machine's loopback: `localhost`, a 127.0.0.0/8 address or
 * `[::1]`, each with or without a port. Anything else, an absent Host included, is refused:
 * browsers always send one, and a `*.localhost` name is left out because not every resolver
 * keeps it on the machine (RFC 6761 §6.3 asks them to, but does not make them).
 */
export function isLoopbackHost(host: string | undefined): boolean {
  if (host === undefined) return false;
  const m = HOST_PATTERN.exec(host.toLowerCase());
  if (m === null) return false;
  if (m[1] !== undefined) return m[1] === '::1';
  const name = m[2] ?? '';
  const bare = name.endsWith('.') ? name.slice(0, -1) : name; // "localhost." is the same name, fully qualified
  return bare === 'localhost' || isLoopbackIPv4(bare);
}

/**
 * The port a Host header names: a number, `undefined` when it names none (the scheme's default),
 * or `'invalid'` when the header is not a host at all.
 */
export function portOfHost(host: string): number | undefined | 'invalid' {
  const m = HOST_PATTERN.exec(host);
  if (m === null) return 'invalid';
  const colon = host.lastIndexOf(':');
  if (colon < 0 || colon < host.lastIndexOf(']')) return undefined;
  return Number(host.slice(colon + 1));
}

function isLoopbackIPv4(address: string): boolean {
  const parts = address.split('.');
  if (parts.length !== 4 || parts[0] !== '127') return false;
  return parts.every((p) => /^[0-9]{1,3}$/.test(p) && Number(p) <= 255);
}

/** Whether a bind address keeps the proxy on this machine: a loopback address, or `localhost`. */
export function isLoopbackBind(host: string): boolean {
  return host.toLowerCase() === 'localhost' || isLoopbackAddress(host);
}
