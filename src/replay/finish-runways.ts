/** The end of a session replay's runways (replay-session.ts, runway.ts): each strategy's, against the recorded one. */
import { DEFAULT_CONTEXT_WINDOW } from '../rescue/index.js';
import type { CompactionPoint } from './compaction-point.js';
import type { RebuiltConversation } from './rebuild-conversations.js';
import { withRatios, type RunwayCounter, type RunwayEnd } from './runway.js';
import { STRATEGIES, type StrategyName } from './strategy-tally.js';

/** Each strategy's runway, the recorded conversation's growth carrying those that never reached the point. */
export function finishRunways(
  runways: Record<StrategyName, RunwayCounter>,
  c: RebuiltConversation | undefined,
  point: CompactionPoint,
  window: number,
  extrapolate = true,
) {
  const counts = (c?.requests ?? []).map((r) => r.usage.input + r.usage.cacheRead + r.usage.cacheWrite + r.usage.output);
  // A whole session is never carried past its data: a runway not ended there is a floor ('>=').
  const growth = extrapolate && counts.length > 1 ? ((counts.at(-1) ?? 0) - (counts[0] ?? 0)) / (counts.length - 1) : 0;
  // At the window the session ran at, its own auto boundary is where the client compacted.
  const boundary =
    c?.compaction?.trigger === 'auto' && c.id === point.recorded?.conversation && window === DEFAULT_CONTEXT_WINDOW
      ? ('recorded_compaction' as const)
      : undefined;
  // The client compacted on the recorded last count: a strategy's estimate runs to the same count.
  const target = boundary === undefined ? undefined : Math.min(point.tokens, counts.at(-1) ?? point.tokens);
  const ends = Object.fromEntries(
    STRATEGIES.map((s) => [
      s,
      runways[s].finish(growth, {
        ...(s === 'recorded' && boundary !== undefined ? { recordedEnd: boundary } : {}),
        ...(target === undefined ? {} : { targetTokens: target }),
      }),
    ]),
  ) as Record<StrategyName, { requests: number; end: RunwayEnd }>;
  return withRatios<StrategyName>(ends, 'recorded');
}
