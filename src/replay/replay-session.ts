/**
 * Replays one session (its conversations) under each strategy and prices every request with the
 * prompt-cache model, after fitting tokens to bytes on the session's own recorded usage. The
 * steps live beside it: session-run.ts opens the replay, replay-step.ts runs each request through
 * every strategy, assemble-session-report.ts adds up the report.
 */
import { assembleSessionReport } from './assemble-session-report.js';
import type { RebuiltConversation } from './rebuild-conversations.js';
import type { ReplayOptions } from './replay-options.js';
import { replayStep } from './replay-step.js';
import type { SessionReport } from './session-report.js';
import { openSessionRun } from './session-run.js';
import { inTimeOrder, isPriced } from './session-steps.js';

export type { MissTally } from './miss-counter.js';
export { PREFIX_CHECK_STAND_IN, type ReplayOptions } from './replay-options.js';
export { COST_BASIS, type Calibration, type SessionReport } from './session-report.js';

/** Replays a session's conversations. */
export async function replaySession(file: string, conversations: readonly RebuiltConversation[], options: ReplayOptions): Promise<SessionReport> {
  const run = await openSessionRun(conversations, options);
  const allSteps = inTimeOrder(conversations);
  const steps = allSteps.filter((step) => isPriced(step, run.point));
  // One request at a time, in the session's order: each strategy's cache and engine carry state from the last.
  for (const step of steps) await replayStep(run, step);
  return assembleSessionReport(file, conversations, run, { replayed: steps.length, afterCompaction: allSteps.length - steps.length });
}
