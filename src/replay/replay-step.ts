/**
 * One request of a session's replay (replay-session.ts): the body as the client sent it, priced
 * for the calibration and as recorded, then sent through each strategy in turn.
 */
import type { PricedRequest } from './prompt-cache.js';
import { replayRescue, replayShed } from './replay-engine-steps.js';
import { replayClearing, replayPerRequest } from './replay-rewrite-steps.js';
import type { SessionRun } from './session-run.js';
import type { Step } from './session-steps.js';
import { byWindow, settle } from './settle-strategy.js';
import { cachedRequest, openStepFrame, type StepFrame } from './step-frame.js';
import { STRATEGIES } from './strategy-tally.js';

/** Replays one request under every strategy, in the order the report's counts expect. */
export async function replayStep(run: SessionRun, step: Step): Promise<void> {
  const frame = openStepFrame(run, step);
  const { conversation: c, n } = frame;
  const asRecorded = calibrate(run, frame);
  // As recorded: the client alone, refused when its prompt is over the (replayed) window.
  const recordedPriced = settle(run, frame, { strategy: 'recorded', sent: frame.body, epochHere: false, outcome: byWindow(run, frame, frame.body) });
  await replayRescue(run, frame);
  // Shed mode's account prices against the recorded body as the model prices it, answered or not at this window.
  await replayShed(run, frame, recordedPriced ?? asRecorded);
  const sets = run.lastSets.get(c.id) ?? { perRequest: '', clearToolUses: '' };
  const perRequest = replayPerRequest(run, frame, sets.perRequest);
  const clearToolUses = replayClearing(run, frame, sets.clearToolUses);
  run.lastSets.set(c.id, { perRequest, clearToolUses });
  // The recorded main thread compacted after this request: where each strategy stood then.
  if (frame.main && c.endedInCompaction && n === c.requests.length - 1) for (const s of STRATEGIES) run.tallies[s].markCompaction();
  run.finalBytes.set(c.id, frame.sentBytes);
}

/** Calibration: the body as the client sent it, against the usage, whatever the window. */
function calibrate(run: SessionRun, frame: StepFrame): PricedRequest {
  const { conversation: c, request, n } = frame;
  const asRecorded = frame.caches.calibration.send({ ...cachedRequest(frame, frame.body, request.blocks), region: frame.region });
  // A stitched request's usage is an estimate: the calibration sets the model against records only.
  if (request.estimated === true) return asRecorded;
  run.calibration.add({
    conversation: c.id,
    request,
    before: n > 0 ? c.requests[n - 1] : undefined,
    beforeTtl: run.ttls.get(c.id)?.[n - 1] ?? '5m',
    modelled: asRecorded,
    main: frame.main,
    window: run.window,
    priceModel: frame.priceModel,
  });
  return asRecorded;
}
