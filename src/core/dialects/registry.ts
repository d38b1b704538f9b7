/**
 * The dialects ctxshed speaks, by route (docs/adding-a-dialect.md): the one place that lists them.
 * Everything else asks `dialectOf(route)`, or the route's own facts, never which API it is.
 */
import { CHAT_API } from './chat.js';
import type { ApiDialect, DialectRoute, ModelRoute } from './dialect.js';
import { MESSAGES_API } from './messages.js';
import { RESPONSES_API } from './responses.js';

/**
 * In the order a body without a route is tried (`elide`, `inflate`: index-any-api.ts), and a
 * request's path is matched. Messages first: it is the default.
 */
const BUILT_IN: readonly ApiDialect[] = [MESSAGES_API, RESPONSES_API, CHAT_API];

let dialects: readonly ApiDialect[] = BUILT_IN;

/** Every dialect, in order. */
export function allDialects(): readonly ApiDialect[] {
  return dialects;
}

/**
 * The route of a request, or `undefined` for anything else (forwarded untouched). `path` is the
 * request target as the client sent it, relative to the proxy's root (query string included).
 */
export function modelRouteOf(method: string | undefined, path: string): ModelRoute | undefined {
  if (method !== 'POST') return undefined;
  return routeEntryOf(pathnameOf(path))?.route;
}

/** The dialect a route's bodies speak; the default (Messages) for a route none lists. */
export function dialectOf(route: ModelRoute): ApiDialect {
  return dialects.find((d) => d.routes.some((r) => r.route === route)) ?? MESSAGES_API;
}

/** Whether a response to this route gives a reading that may latch an epoch (every model call but count_tokens). */
export function readsFullness(route: ModelRoute | null | undefined): route is ModelRoute {
  if (route === undefined || route === null) return false;
  return dialects.some((d) => d.routes.some((r) => r.route === route && r.readsFullness));
}

/** The dialect whose error shape a client of `target` parses (any method, any path); Messages by default. */
export function dialectOfTarget(target: string): ApiDialect {
  const pathname = pathnameOf(target);
  return dialects.find((d) => d.ownsPath(pathname)) ?? MESSAGES_API;
}

/**
 * Adds `dialect` after the built-in ones until the returned function is called: the registry's
 * one way in, as `registerKind` is the kinds' (docs/adding-a-dialect.md). A built-in is a line of
 * `BUILT_IN`; a test's own dialect comes in here.
 */
export function registerDialect(dialect: ApiDialect): () => void {
  const before = dialects;
  dialects = [...before, dialect];
  return () => {
    dialects = before;
  };
}

function routeEntryOf(pathname: string): DialectRoute | undefined {
  for (const d of dialects) for (const r of d.routes) if (r.matches(pathname)) return r;
  return undefined;
}

function pathnameOf(target: string): string {
  const end = target.search(/[?#]/);
  return end < 0 ? target : target.slice(0, end);
}

/** The dialect named `name`; the default (Messages) for a name none has. */
export function dialectNamed(name: string): ApiDialect {
  return dialects.find((d) => d.name === name) ?? MESSAGES_API;
}
