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
  const counts = countsOf(c);
  // A whole session is never carried past its data: a runway not ended there is a floor ('>=').
  const growth = extrapolate && counts.length > 1 ? ((counts.at(-1) ?? 0) - (counts[0] ?? 0)) / (counts.length - 1) : 0;
  const target = estimateTarget(c, point, window);
  const boundary = target === undefined ? undefined : ('recorded_compaction' as const);
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

/**
 * The count a runway estimate runs to when it is not the compaction point: at the window the
 * session ran at, its own auto boundary is where the client compacted, on the recorded
 * conversation's last count, so a strategy's estimate runs to the same count (a strategy that
 * changed nothing gets the recorded runway). Undefined: the estimate runs to the point.
 */
export function estimateTarget(c: RebuiltConversation | undefined, point: CompactionPoint, window: number): number | undefined {
  if (c?.compaction?.trigger !== 'auto' || c.id !== point.recorded?.conversation || window !== DEFAULT_CONTEXT_WINDOW) return undefined;
  return Math.min(point.tokens, countsOf(c).at(-1) ?? point.tokens);
}

/** Each request's count as the client reads it: prompt and output tokens. */
function countsOf(c: RebuiltConversation | undefined): number[] {
  return (c?.requests ?? []).map((r) => r.usage.input + r.usage.cacheRead + r.usage.cacheWrite + r.usage.output);
}
