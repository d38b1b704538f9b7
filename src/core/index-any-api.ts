/**
 * A body read by whichever API it speaks, for the commands that take a body without a route
 * (`elide`, `inflate`): Messages first, then the Responses API, then chat. A body is taken as the
 * first one whose index reads it; a body none reads gets the Messages index's failure.
 */
import { MESSAGES_API, type ApiDialect } from './api-dialect.js';
import { CHAT_API, RESPONSES_API } from './openai/dialects.js';
import type { IndexOutcome } from './transcript-index.js';

const IN_ORDER: readonly ApiDialect[] = [MESSAGES_API, RESPONSES_API, CHAT_API];

/** The API that reads the body and its index, or the Messages failure. Never throws. */
export function indexAnyApi(body: Uint8Array): { readonly api: ApiDialect; readonly outcome: IndexOutcome } {
  const first = MESSAGES_API.index(body);
  if (first.kind === 'indexed') return { api: MESSAGES_API, outcome: first };
  for (const api of IN_ORDER.slice(1)) {
    const outcome = api.index(body);
    if (outcome.kind === 'indexed') return { api, outcome };
  }
  return { api: MESSAGES_API, outcome: first };
}
