/**
 * The recorded session past its first compaction (replay-session.ts, basis `firstCompaction`):
 * what the user paid for the rest of the session, for the recorded-with-compaction baseline. The
 * compaction call is priced from its own usage record (the model cannot rebuild the summary
 * prompt); every other request by the same prompt-cache model as the strategies, so the baseline
 * and the strategies differ only in what was sent.
 */
import { priceRecorded } from './prompt-cache.js';
import type { SessionRun } from './session-run.js';
import { isCompactionCall, type Step } from './session-steps.js';
import { cachedRequest, openStepFrame } from './step-frame.js';

/** Prices one request the strategies leave out, as recorded, into the run's whole-session baseline. */
export function priceRecordedTail(run: SessionRun, step: Step): void {
  const whole = run.recordedWhole;
  const { request } = step;
  if (isCompactionCall(step)) {
    const model = run.options.priceAs ?? request.model;
    const cost = priceRecorded(model, request.usage);
    // Never a silent $0: a call on a model the table does not know is named, and the baseline is a floor.
    if (cost === undefined) whole.unpriced.add(model);
    whole.compactionCalls.requests++;
    whole.compactionCalls.costUsd += cost ?? 0;
    whole.costUsd += cost ?? 0;
    whole.cacheWriteTokens += request.usage.cacheWrite;
    return;
  }
  const frame = openStepFrame(run, step);
  const priced = frame.caches.recorded.send({ ...cachedRequest(frame, frame.body, request.blocks), region: frame.region });
  if (!priced.priced) whole.unpriced.add(frame.priceModel);
  whole.costUsd += priced.costUsd;
  whole.cacheWriteTokens += priced.cacheWriteTokens;
}
