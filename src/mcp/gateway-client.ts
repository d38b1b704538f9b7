/**
 * The restore tools read through a gateway (`ctxshed mcp --gateway URL`, docs/team.md): the
 * proxy's restore routes serve the owner that wrote the text, found by the credential or header
 * this process sends, taken from the environment the agent already has. No secret is ever in argv
 * or in a line this writes.
 */
import { createHash } from 'node:crypto';
import { GATEWAY_RESTORE_PATH, GATEWAY_SPANS_PATH } from '../core/gateway-routes.js';
import type { RestorableList } from '../restore/list-restorable.js';
import { parseHandle } from '../restore/restore-handle.js';
import type { RestoreOutcome } from '../restore/restore-text.js';
import { decodeList, decodeOutcome } from '../restore/restore-wire.js';
import type { ToolSource } from './tool-source.js';

/** Where the gateway is, and the headers that say who asks. */
export interface GatewayAccess {
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
}

/** `--gateway-header NAME=ENV`: header NAME gets the value of environment variable ENV. */
export interface HeaderFromEnv {
  readonly name: string;
  readonly env: string;
}

/**
 * The headers to send: each `--gateway-header` from its variable, and the credential the agent
 * itself uses (`ANTHROPIC_API_KEY` as x-api-key, else `ANTHROPIC_AUTH_TOKEN`, else
 * `OPENAI_API_KEY`, as a Bearer token). Throws, naming the variable but never a value, when a
 * named variable is unset.
 */
export function gatewayHeaders(env: NodeJS.ProcessEnv, fromEnv: readonly HeaderFromEnv[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { name, env: variable } of fromEnv) {
    const value = env[variable];
    if (value === undefined || value === '') throw new Error(`--gateway-header ${name}=${variable}: ${variable} is not set`);
    headers[name.toLowerCase()] = value;
  }
  const apiKey = env['ANTHROPIC_API_KEY'];
  const bearer = env['ANTHROPIC_AUTH_TOKEN'] || env['OPENAI_API_KEY'];
  if (apiKey !== undefined && apiKey !== '') headers['x-api-key'] = apiKey;
  else if (bearer !== undefined && bearer !== '') headers['authorization'] = `Bearer ${bearer}`;
  return headers;
}

/** The tools' source over a gateway. */
export function gatewaySource(access: GatewayAccess): ToolSource {
  return {
    restore: (handle) => restoreOverGateway(access, handle),
    // The window's room is in the gateway's wire log, not here: a restore over the gateway pages at the default size.
    room: () => Promise.resolve(undefined),
    list: () => listOverGateway(access),
  };
}

async function restoreOverGateway(access: GatewayAccess, handle: string): Promise<RestoreOutcome> {
  const parsed = parseHandle(handle);
  // Checked here as locally: a handle that is not one never leaves the machine.
  if (parsed.kind === 'invalid') return parsed;
  const url = routeUrl(access.url, GATEWAY_RESTORE_PATH);
  url.searchParams.set('handle', parsed.prefix);
  const res = await get(access, url);
  // Nothing under that handle for this owner: the same answer as a local miss.
  if (res.status === 404) return { kind: 'unknown', prefix: parsed.prefix };
  const outcome = decodeOutcome(await bodyOf(res, [200, 400]));
  // "verified" in the tool's answer stays true here: the bytes are hashed again on this machine.
  if (outcome.kind === 'restored' && createHash('sha256').update(outcome.bytes).digest('hex') !== outcome.handle) {
    throw new Error(`the gateway's bytes for ${outcome.handle} do not hash to it`);
  }
  return outcome;
}

async function listOverGateway(access: GatewayAccess): Promise<RestorableList> {
  return decodeList(await bodyOf(await get(access, routeUrl(access.url, GATEWAY_SPANS_PATH)), [200]));
}

/** The route's URL under the gateway's base (a base with a path keeps it). */
function routeUrl(base: URL, route: string): URL {
  const url = new URL(base.href);
  url.pathname = `${base.pathname.replace(/\/+$/, '')}${route}`;
  url.search = '';
  return url;
}

async function get(access: GatewayAccess, url: URL): Promise<Response> {
  try {
    return await fetch(url, { headers: { ...access.headers }, redirect: 'error', signal: AbortSignal.timeout(60_000) });
  } catch (error) {
    throw new Error(`the gateway ${access.url.origin} did not answer (${(error as Error).cause ?? (error as Error).message})`);
  }
}

async function bodyOf(res: Response, ok: readonly number[]): Promise<string> {
  const text = await res.text();
  if (ok.includes(res.status)) return text;
  if (res.status === 401) throw new Error('the gateway knows no owner for this agent: set the credential it checks (ANTHROPIC_API_KEY, or --gateway-header)');
  throw new Error(`the gateway answered ${res.status}`);
}
