/**
 * How many model calls a transcript records, as each API writes a model's answer: the burst gate
 * (core/break-even.ts) expects as many more turns as the conversation has had.
 */
import { isModelTurnRole } from '../shed/responses-facts.js';
import type { TranscriptIndex } from '../transcript-index-types.js';

/** The Messages API: one assistant message per call. */
export function assistantMessages(index: TranscriptIndex): number {
  return index.messages.filter((m) => m.role === 'assistant').length;
}

/**
 * The OpenAI APIs: one call answers with a run of items only the model writes (reasoning, a
 * message, function calls), so each run is one call.
 */
export function modelItemRuns(index: TranscriptIndex): number {
  const messages = index.messages;
  return messages.filter((m, i) => isModelTurnRole(m.role) && !isModelTurnRole(messages[i - 1]?.role ?? '')).length;
}
