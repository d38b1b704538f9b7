/**
 * A strategy's runway: the requests its conversation is answered for before the client compacts,
 * that is through the first request whose count (prompt and output tokens) reaches the compaction
 * point (compaction-point.ts), or up to the first request the API refused as too long (the client
 * then compacts too). Measured on the main thread's first conversation, the one the recorded
 * session compacted first. Pure.
 */

/** How the runway ended. */
export type RunwayEnd =
  /** A request's count reached the compaction point. */
  | 'compaction_point'
  /** The API refused a request as too long (and no rescue brought it under the window). */
  | 'refusal'
  /** Recorded only: the transcript's own boundary ended it, at the window the session ran at. */
  | 'recorded_compaction'
  /**
   * The conversation ended before either: the requests left to the point at the recorded
   * conversation's growth per request, with no further epoch (an estimate).
   */
  | 'extrapolated'
  /** The conversation ended before either and did not grow: its length, a lower bound. */
  | 'not_reached';

/** One strategy's runway. */
export interface Runway {
  readonly requests: number;
  readonly end: RunwayEnd;
  /** `requests` over the recorded runway; null when the recorded one is 0. */
  readonly ratio: number | null;
}

/** Follows one strategy through the conversation, one request at a time. */
export class RunwayCounter {
  #seen = 0;
  #last = 0;
  #ended: { readonly requests: number; readonly end: RunwayEnd } | undefined;

  constructor(readonly pointTokens: number) {}

  /** One request: its count when answered, or that it was refused. */
  add(outcome: { readonly refused: true } | { readonly refused: false; readonly countTokens: number }): void {
    if (this.#ended !== undefined) return;
    this.#seen++;
    if (outcome.refused) {
      this.#ended = { requests: this.#seen - 1, end: 'refusal' };
      return;
    }
    this.#last = outcome.countTokens;
    if (outcome.countTokens >= this.pointTokens) this.#ended = { requests: this.#seen, end: 'compaction_point' };
  }

  /** Whether the runway has ended within the conversation. */
  get ended(): boolean {
    return this.#ended !== undefined;
  }

  /**
   * The runway. `growthTokens`: the recorded conversation's growth per request, for the estimate
   * past its end. `recordedEnd`: the boundary that ended the recorded conversation (recorded
   * only). `targetTokens`: the count the estimate runs to when not the point (the recorded
   * conversation's last count, when the client compacted on it short of the point by its own
   * reckoning), so that a strategy that changed nothing gets the recorded runway.
   */
  finish(
    growthTokens: number,
    options: { readonly recordedEnd?: 'recorded_compaction'; readonly targetTokens?: number } = {},
  ): { readonly requests: number; readonly end: RunwayEnd } {
    if (this.#ended !== undefined) return this.#ended;
    if (options.recordedEnd !== undefined) return { requests: this.#seen, end: options.recordedEnd };
    if (!(growthTokens > 0)) return { requests: this.#seen, end: 'not_reached' };
    const more = Math.max(0, Math.ceil(((options.targetTokens ?? this.pointTokens) - this.#last) / growthTokens));
    return more === 0 ? { requests: this.#seen, end: 'compaction_point' } : { requests: this.#seen + more, end: 'extrapolated' };
  }
}

/** Each strategy's runway with its ratio to the recorded one. */
export function withRatios<K extends string>(
  runways: Record<K, { readonly requests: number; readonly end: RunwayEnd }>,
  recorded: NoInfer<K>,
): Record<K, Runway> {
  const base = runways[recorded].requests;
  const out = {} as Record<K, Runway>;
  for (const k of Object.keys(runways) as K[]) {
    const r = runways[k];
    out[k] = { ...r, ratio: base > 0 ? Math.round((r.requests / base) * 100) / 100 : null };
  }
  return out;
}
