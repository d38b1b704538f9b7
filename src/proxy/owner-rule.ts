/**
 * Who owns a request (docs/team.md "Owners"). Off by default: one user, owner `''`, the state
 * directory as it always was. With a rule on, the owner is a hash, never the text it was made
 * from: of the request's credential (`--owner-from credential`: `x-api-key`, else
 * `Authorization: Bearer …`), or of a header the team's own gateway sets (`--owner-header NAME`,
 * stripped before the request goes upstream). A request with no owner under a rule is refused.
 */
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { headerLines } from './header-lines.js';

/** How a request's owner is found. */
export type OwnerRule = { readonly kind: 'none' } | { readonly kind: 'credential' } | { readonly kind: 'header'; readonly name: string };

/** The single-user default: every request is the one owner `''`. */
export const NO_OWNER_RULE: OwnerRule = { kind: 'none' };

/** Hex digits of an owner id: 128 bits of the sha256, a safe path segment. */
export const OWNER_ID_HEX = 32;

/** A request's owner, or why it has none. */
export type OwnerOf = { readonly kind: 'owner'; readonly ownerId: string } | { readonly kind: 'missing'; readonly message: string };

/** Whether a rule is on (a non-loopback bind needs one: docs/team.md "The bind rule"). */
export function hasOwnerRule(rule: OwnerRule | undefined): boolean {
  return rule !== undefined && rule.kind !== 'none';
}

/**
 * The owner of a request with these headers under `rule`. `rawHeaders`, the lines as received, say
 * whether a header came twice: node joins a repeated `x-api-key` or owner header into one value
 * (`bob, alice`) and keeps the first `authorization`, so only the lines tell (header-lines.ts).
 */
export function ownerOf(headers: IncomingHttpHeaders, rule: OwnerRule | undefined, rawHeaders?: readonly string[]): OwnerOf {
  if (rule === undefined || rule.kind === 'none') return { kind: 'owner', ownerId: '' };
  const names = rule.kind === 'credential' ? ['x-api-key', 'authorization'] : [rule.name];
  const repeated = names.find((name) => headerLines(name, headers, rawHeaders) > 1);
  if (repeated !== undefined) {
    return { kind: 'missing', message: `refused: the request carries ${repeated} more than once, so it names no one owner. Nothing was forwarded.` };
  }
  const secret = rule.kind === 'credential' ? credentialOf(headers) : single(headers[rule.name.toLowerCase()]);
  if (secret === undefined || secret.trim() === '') {
    const what = rule.kind === 'credential' ? 'no credential (x-api-key or Authorization: Bearer)' : `no ${rule.name} header`;
    return { kind: 'missing', message: `refused: the request carries ${what}, and this ctxshed keeps each owner's state apart. Nothing was forwarded.` };
  }
  return { kind: 'owner', ownerId: ownerIdOf(secret.trim()) };
}

/** The owner id of a credential or header value: sha256, hex, the first 32 digits. */
export function ownerIdOf(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex').slice(0, OWNER_ID_HEX);
}

/** The credential a request carries: `x-api-key`, else the token of `Authorization: Bearer`. */
function credentialOf(headers: IncomingHttpHeaders): string | undefined {
  const key = single(headers['x-api-key']);
  if (key !== undefined && key.trim() !== '') return key;
  const auth = single(headers.authorization);
  const bearer = auth === undefined ? undefined : /^\s*bearer\s+(\S+)\s*$/i.exec(auth);
  return bearer?.[1];
}

// A repeated header is ambiguous: no owner, rather than one of two.
function single(value: string | string[] | undefined): string | undefined {
  if (Array.isArray(value)) return value.length === 1 ? value[0] : undefined;
  return value;
}

/** `name` as `--owner-header` takes it: an HTTP token, and not one the request's own auth uses. */
export function checkOwnerHeaderName(name: string): string | undefined {
  if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) return `--owner-header takes a header name, not ${JSON.stringify(name)}`;
  const lower = name.toLowerCase();
  if (['host', 'authorization', 'x-api-key', 'content-length', 'content-type', 'connection'].includes(lower))
    return `--owner-header cannot be ${name}: the request needs it as it is (use --owner-from credential for the credential)`;
  return undefined;
}
