/**
 * Remote compaction on the Responses API (docs/openai.md, "Remote compaction"). Codex asks the API
 * to compact either with `POST /responses/compact` (not a model call: forwarded untouched) or with a
 * streamed `POST /responses` whose last input item is `{"type":"compaction_trigger"}`, answered by
 * one `compaction` item (opaque `encrypted_content`) that later requests send back.
 *
 * Both items index as blocks of their own type, never as tool outputs, so no stub is ever put in
 * or across one. A trigger request is the request class `compaction`: like Claude Code's, it goes
 * through the conversation's epochs but never latches one on the threshold (core/request-class.ts).
 */
import type { RequestClass } from '../request-class.js';
import type { TranscriptIndex } from '../transcript-index-types.js';

/** The input item that asks the API to compact. */
export const COMPACTION_TRIGGER_TYPE = 'compaction_trigger';
/** The item the API compacts into. */
export const COMPACTION_ITEM_TYPE = 'compaction';

/**
 * Whether a Responses body asks the API to compact: its last input item is a `compaction_trigger`
 * (the Responses dialect's `requestClass` asks; no other index has such an item).
 */
export function isCompactionTrigger(index: TranscriptIndex | undefined): boolean {
  return index?.messages.at(-1)?.blocks[0]?.type === COMPACTION_TRIGGER_TYPE;
}

/** The request's class: the client's when it names one, else the one its dialect reads from the body. */
export function requestClassOfBody(
  given: RequestClass | undefined,
  api: { readonly requestClass: (index: TranscriptIndex | undefined) => RequestClass | undefined },
  index: TranscriptIndex | undefined,
): RequestClass | undefined {
  return given ?? api.requestClass(index);
}
