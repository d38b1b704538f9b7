/** Which requests are model calls that ctxshed may rewrite, and which API each speaks. */
import { MESSAGES_API, type ApiDialect } from './api-dialect.js';
import { CHAT_API, RESPONSES_API } from './openai/dialects.js';

/**
 * `messages`, `responses` and `chat` may latch epochs; `count_tokens` gets its conversation's
 * rewrite but never latches.
 */
export type ModelRoute = 'messages' | 'count_tokens' | 'responses' | 'chat';

/**
 * The route of a request, or `undefined` for anything else (forwarded untouched). `path` is the
 * request target as the client sent it, relative to the proxy's root (query string included).
 * The OpenAI routes match on the path's end, since an OpenAI base URL carries its own prefix
 * (`https://api.openai.com/v1`, a gateway's `/openai/v1`): `POST .../responses` and
 * `POST .../chat/completions`.
 */
export function modelRouteOf(method: string | undefined, path: string): ModelRoute | undefined {
  if (method !== 'POST') return undefined;
  const q = path.indexOf('?');
  const pathname = q < 0 ? path : path.slice(0, q);
  if (pathname === '/v1/messages') return 'messages';
  if (pathname === '/v1/messages/count_tokens') return 'count_tokens';
  if (pathname.endsWith('/responses')) return 'responses';
  if (pathname.endsWith('/chat/completions')) return 'chat';
  return undefined;
}

/** Whether a response to this route gives a reading that may latch an epoch (every model call but count_tokens). */
export function readsFullness(route: ModelRoute | undefined): route is 'messages' | 'responses' | 'chat' {
  return route === 'messages' || route === 'responses' || route === 'chat';
}

/** The API a route's bodies speak. */
export function dialectOfRoute(route: ModelRoute): ApiDialect {
  if (route === 'responses') return RESPONSES_API;
  if (route === 'chat') return CHAT_API;
  return MESSAGES_API;
}
