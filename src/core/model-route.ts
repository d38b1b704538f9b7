/** Which requests are model calls that ctxshed may rewrite. */

/** `messages` may latch epochs; `count_tokens` gets its conversation's rewrite but never latches. */
export type ModelRoute = 'messages' | 'count_tokens';

/**
 * The route of a request, or `undefined` for anything else (forwarded untouched). `path` is the
 * request target as the client sent it, relative to the proxy's root (query string included).
 */
export function modelRouteOf(method: string | undefined, path: string): ModelRoute | undefined {
  if (method !== 'POST') return undefined;
  const q = path.indexOf('?');
  const pathname = q < 0 ? path : path.slice(0, q);
  if (pathname === '/v1/messages') return 'messages';
  if (pathname === '/v1/messages/count_tokens') return 'count_tokens';
  return undefined;
}
