/**
 * The recent window a span leaves alone: what the model is working on, by a budget of tokens
 * counted back from the newest message (docs/shed.md, "The recent window"). It holds
 *
 * - the last assistant message and everything after it, whatever their size (the thinking blocks
 *   of the last turn come back unmodified, and its tool_results stay with it);
 * - every older message that fits in the budget with all the messages after it;
 * - a restore's answer (restore-call.ts) while the messages after it fit in the budget: the text
 *   the model asked for again is old only when as much newer text lies after it as after anything
 *   else that is old, however large the answer itself is.
 *
 * The person's turns no longer hold it back: a session that runs on its own for a hundred model
 * calls after "continue until all are done" would otherwise keep all of them. Their latest prompt
 * goes into the stub instead (plan-span.ts). Tokens are estimated from bytes at the stub's fixed
 * rate, so the window is a pure function of the body.
 */
import type { TranscriptIndex } from '../transcript-index-types.js';
import type { MessageFacts } from './message-facts.js';
import { SPAN_STUB_TOKENS_PER_BYTE } from './span-stub.js';

/** The first message of the recent window under a budget of `budgetTokens` (0 or more; n − 1 at most). */
export function recentWindowStart(index: TranscriptIndex, facts: readonly MessageFacts[], budgetTokens: number): number {
  const messages = index.messages;
  const n = messages.length;
  if (n === 0) return -1;
  const lastAssistant = facts.findLastIndex((f) => f.role === 'assistant');
  let start = lastAssistant < 0 ? n - 1 : Math.min(n - 1, lastAssistant);
  const budgetBytes = budgetTokens / SPAN_STUB_TOKENS_PER_BYTE;
  const end = messages[n - 1]!.end;
  // Bytes from a message to the end only grow going back, so the first that does not fit ends it.
  for (let i = start - 1; i >= 1; i--) {
    const withIt = end - messages[i]!.start;
    const after = end - messages[i + 1]!.start;
    if (withIt <= budgetBytes || (facts[i]!.restores && after <= budgetBytes)) start = i;
    else break;
  }
  return start;
}
