/**
 * A request's last phase, after its response (docs/design.md "Fullness"): the usage reading the
 * conversation's next request is judged on. Only a 200 of a model call counts (Messages,
 * Responses, chat): count_tokens and side calls never latch.
 */
import { contextTokensOf, isSideCall, readsFullness } from '../core/index.js';
import type { EngineParts } from './engine-parts.js';
import type { ObservedResponse, Prepared } from './engine-types.js';

/** Keeps the response's reading on its conversation; on a shared store, returns the write of it (never rejects). */
export function recordReading(parts: EngineParts, prepared: Prepared, response: ObservedResponse): Promise<void> | undefined {
  const conversation = prepared.conversation === undefined || prepared.key === undefined ? undefined : parts.table.peek(prepared.key);
  if (!readsFullness(prepared.route) || response.status !== 200 || response.usage === undefined || conversation === undefined) return undefined;
  // A side call's context is not its conversation's next turn.
  if (isSideCall(prepared.requestClass)) return undefined;
  conversation.reading = {
    contextTokens: contextTokensOf(response.usage),
    window: prepared.window,
    epochsApplied: prepared.epochs,
    requestBytes: response.requestBytes ?? prepared.body.length,
  };
  return parts.table.shareReading(conversation);
}
