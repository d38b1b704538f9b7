/**
 * A body read by whichever API it speaks, for the commands that take a body without a route
 * (`elide`, `inflate`): each dialect in the registry's order (Messages first, then the Responses
 * API, then chat). A body is taken as the first one whose index reads it; a body none reads gets
 * the Messages index's failure.
 */
import type { ApiDialect } from './dialect.js';
import { MESSAGES_API } from './messages.js';
import { allDialects } from './registry.js';
import type { IndexOutcome } from '../transcript-index-types.js';

/** The API that reads the body and its index, or the Messages failure. Never throws. */
export function indexAnyApi(body: Uint8Array): { readonly api: ApiDialect; readonly outcome: IndexOutcome } {
  const first = MESSAGES_API.index(body);
  if (first.kind === 'indexed') return { api: MESSAGES_API, outcome: first };
  for (const api of allDialects()) {
    if (api === MESSAGES_API) continue;
    const outcome = api.index(body);
    if (outcome.kind === 'indexed') return { api, outcome };
  }
  return { api: MESSAGES_API, outcome: first };
}
