/**
 * The Responses API (`POST .../responses`): what Codex speaks. Matched on the path's end, since an
 * OpenAI base URL carries its own prefix (`https://api.openai.com/v1`, a gateway's `/openai/v1`).
 */
import { OPENAI_PARTS, openAiKeyLookup } from './openai-dialect-parts.js';
import { RESPONSES_USAGE } from './openai-usage-events.js';
import { isCompactionTrigger } from '../openai/remote-compaction.js';
import { indexResponses } from '../openai/responses-index.js';
import { responsesPartSites } from '../openai/part-sites.js';
import type { ApiDialect } from './dialect.js';

/** The Responses API. */
export const RESPONSES_API: ApiDialect = {
  ...OPENAI_PARTS,
  name: 'responses',
  routes: [{ route: 'responses', matches: (pathname) => pathname.endsWith('/responses'), readsFullness: true }],
  // A stored response's sub-paths (`/responses/{id}`, `/responses/compact`) answer in its shape too.
  ownsPath: (pathname) => pathname.endsWith('/responses') || pathname.includes('/responses/'),
  index: indexResponses,
  // Its pairs are planned around for spans (core/shed/responses-facts.ts); ctxshed serves its
  // WebSocket; it may refuse inside a 200 stream (docs/openai.md).
  supports: { ...OPENAI_PARTS.supports, spans: true, websocket: true, streamedRefusal: true },
  key: (body, input, sha256) => openAiKeyLookup('responses', indexResponses(body), body, input, sha256),
  // A body whose last input item is `compaction_trigger` asks the API to compact (docs/openai.md, "Remote compaction").
  requestClass: (index) => (isCompactionTrigger(index) ? 'compaction' : undefined),
  usage: RESPONSES_USAGE,
  partSites: responsesPartSites,
};
