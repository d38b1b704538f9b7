/** How one strategy's body for a replayed request is counted (replay-session.ts): priced if answered, tallied if refused. */
import type { PricedRequest } from './prompt-cache.js';
import type { SessionRun } from './session-run.js';
import { cachedRequest, thinkingOf, tokensOf, type StepFrame } from './step-frame.js';
import type { StrategyName } from './strategy-tally.js';
import { refusedOverWindow, type RefusedWhy } from './window-refusal.js';

/** How the API took a request: answered, or refused and why. */
export type Settled = { readonly refused: false } | { readonly refused: true; readonly why: RefusedWhy };

/** What one strategy sent for the step's request, and whether it latched an epoch on it. */
export interface StrategySend {
  readonly strategy: StrategyName;
  readonly sent: Uint8Array;
  readonly epochHere: boolean;
  readonly outcome: Settled;
  /** Thinking blocks sent that fail the prefix check (`--prefix-check`, prefix-thinking.ts): counted as removed. */
  readonly thinkingInvalid?: number;
}

/** Prices an answered request, or counts a refused one: never both. */
export function settle(
  run: SessionRun,
  frame: StepFrame,
  { strategy: s, sent, epochHere, outcome, thinkingInvalid = 0 }: StrategySend,
): PricedRequest | undefined {
  const { request, main } = frame;
  const tally = run.tallies[s];
  const t = tokensOf(frame, sent);
  frame.sentBytes[s] = sent.length;
  if (main) tally.addThinking(frame.thinkingIn, Math.max(0, thinkingOf(frame, sent) - thinkingInvalid));
  if (outcome.refused) {
    tally.refuse(t, run.window, main, epochHere, outcome.why);
    if (frame.inRunway) run.runways[s].add({ refused: true });
    return undefined;
  }
  const cached = cachedRequest(frame, sent, request.blocks);
  const priced = frame.caches[s].send(s === 'recorded' ? { ...cached, region: frame.region } : cached);
  if (!priced.priced) run.unpriced.add(frame.priceModel);
  tally.add(priced, run.window, main, epochHere, t);
  if (frame.inRunway) run.runways[s].add({ refused: false, countTokens: t + request.usage.output });
  return priced;
}

/** A strategy without a rescue: refused when its prompt is over the window. */
export function byWindow(run: SessionRun, frame: StepFrame, sent: Uint8Array): Settled {
  return refusedOverWindow(tokensOf(frame, sent), run.window) ? { refused: true, why: 'no_rescue' } : { refused: false };
}
