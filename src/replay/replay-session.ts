/**
 * Replays one session (its conversations) under each strategy and prices every request with the
 * prompt-cache model, after fitting tokens to bytes on the session's own recorded usage. The
 * steps live beside it: session-run.ts opens the replay, replay-step.ts runs each request through
 * every strategy, assemble-session-report.ts adds up the report. `replayWholeSession` replays a
 * stitched history (stitch-transcript.ts) instead, priced whole.
 */
import { assembleSessionReport } from './assemble-session-report.js';
import type { CompactionPoint } from './compaction-point.js';
import type { RebuiltConversation } from './rebuild-conversations.js';
import { priceRecordedTail } from './recorded-tail.js';
import type { ReplayOptions } from './replay-options.js';
import { replayStep } from './replay-step.js';
import type { SessionReport } from './session-report.js';
import { closeSessionRun, openSessionRun } from './session-run.js';
import { inTimeOrder, isCompactionCall, isPriced } from './session-steps.js';
import type { BodyBuilder } from './request-body.js';
import { reestimateWithModel } from './whole-session.js';

export type { MissTally } from './miss-counter.js';
export { PREFIX_CHECK_STAND_IN, type ReplayOptions } from './replay-options.js';
export { COST_BASIS, type Calibration, type SessionReport } from './session-report.js';

/** Told after each request replayed: long replays show their progress by it. */
export type OnStep = () => void;

/** Replays a session's conversations up to its first compaction; the recorded session is also priced whole, as the baseline. */
export async function replaySession(
  file: string,
  conversations: readonly RebuiltConversation[],
  options: ReplayOptions,
  onStep: OnStep = () => {},
): Promise<SessionReport> {
  const run = await openSessionRun(conversations, options);
  const allSteps = inTimeOrder(conversations);
  let replayed = 0;
  // One request at a time, in the session's order: each strategy's cache and engine carry state from the last.
  try {
    for (const step of allSteps) {
      if (isPriced(step, run.point)) {
        await replayStep(run, step);
        replayed++;
      } else {
        priceRecordedTail(run, step);
      }
      onStep();
    }
  } finally {
    closeSessionRun(run);
  }
  return assembleSessionReport(file, conversations, run, { replayed, afterCompaction: allSteps.length - replayed });
}

/**
 * Replays a stitched session whole (every request but the compaction calls, which never happen
 * without a compaction), at the recorded session's compaction point, its usage past the boundary
 * re-estimated from bytes.
 */
export async function replayWholeSession(
  file: string,
  stitched: readonly RebuiltConversation[],
  options: ReplayOptions,
  point: CompactionPoint,
  onStep: OnStep = () => {},
): Promise<SessionReport> {
  // One builder per conversation for the estimate and the replay: each message is encoded once.
  const builders = new Map<string, BodyBuilder>();
  const { conversations, model } = reestimateWithModel(stitched, builders);
  const { recorded: _cut, ...uncut } = point;
  const run = await openSessionRun(conversations, options, { point: uncut }, { builders, ...(model === undefined ? {} : { model }) });
  const steps = inTimeOrder(conversations).filter((step) => !isCompactionCall(step));
  try {
    for (const step of steps) {
      await replayStep(run, step);
      onStep();
    }
  } finally {
    closeSessionRun(run);
  }
  return assembleSessionReport(file, conversations, run, { replayed: steps.length, afterCompaction: 0 });
}
