/**
 * A request's owner on the request path (owner-rule.ts): the engine of its owner, and the request
 * as it goes on, without the owner header (that header is for ctxshed, never for the upstream).
 */
import type { EdgeRequest } from './edge.js';
import { ownerOf, type OwnerOf } from './owner-rule.js';
import type { ProxyDeps } from './proxy-deps.js';

/** The owner of `request` under the proxy's rule. */
export function requestOwner(deps: ProxyDeps, request: EdgeRequest): OwnerOf {
  return ownerOf(request.headers, deps.ownerRule, request.rawHeaders);
}

/** The dependencies of a request of `ownerId`: the same, with that owner's engine. */
export async function depsForOwner(deps: ProxyDeps, ownerId: string): Promise<ProxyDeps> {
  if (ownerId === '' || deps.owners === undefined) return deps;
  return { ...deps, engine: await deps.owners.engineFor(ownerId) };
}

/** `request` without the owner header of a `--owner-header` rule; unchanged under any other rule. */
export function withoutOwnerHeader(deps: ProxyDeps, request: EdgeRequest): EdgeRequest {
  const rule = deps.ownerRule;
  if (rule?.kind !== 'header') return request;
  const name = rule.name.toLowerCase();
  const headers = { ...request.headers };
  delete headers[name];
  const raw = request.rawHeaders;
  const rawHeaders: string[] = [];
  if (raw !== undefined) {
    for (let i = 0; i + 1 < raw.length; i += 2) {
      if ((raw[i] ?? '').toLowerCase() !== name) rawHeaders.push(raw[i] ?? '', raw[i + 1] ?? '');
    }
  }
  return { ...request, headers, ...(raw === undefined ? {} : { rawHeaders }) };
}
