/**
 * Running totals of one strategy over a session, and the summary the table, JSON and page show.
 * Sheds are counted once per block (once per epoch for rescue), never once per request; shed
 * mode's spans are not summed at all (replay-session.ts reports them per epoch). Pure.
 */
import type { PricedRequest } from './prompt-cache.js';
import type { Runway } from './runway.js';
import type { RefusedWhy } from './window-refusal.js';

/** The strategies, in the order they are shown. */
export const STRATEGIES = ['recorded', 'rescue', 'shed', 'perRequest', 'clearToolUses'] as const;
export type StrategyName = (typeof STRATEGIES)[number];

/** One strategy's figures for a session (fractions of the window; tokens; dollars). */
export interface StrategySummary {
  /** The fullest answered main-thread request: a refused prompt is never counted here (see `refused`). */
  readonly peakFullness: number;
  /** The last answered main-thread request's fullness, on the same footing as `peakFullness` (0 when none was answered). */
  readonly finalFullness: number;
  /** Requests answered before the client's first compaction, and the ratio to recorded (runway.ts). */
  readonly runway: Runway;
  /** Requests the API refused as too long (never answered, never billed), by why. */
  readonly refused: number;
  readonly refusedWhy: Partial<Record<RefusedWhy, number>>;
  /** Requests refused once and answered on ctxshed's retry (rescue on overflow). */
  readonly rescued: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
  readonly uncachedTokens: number;
  readonly outputTokens: number;
  /** cache read / (read + write + uncached). */
  readonly cacheHitRatio: number;
  readonly costUsd: number;
  /** Rescue and shed: epochs latched. Others: requests whose set of elided blocks changed (each breaks the cache). */
  readonly epochs: number;
  /**
   * UTF-8 bytes of tool-result text kept out of the window, each block counted once. `null` for
   * shed: its spans are reported per epoch (`SessionReport.shedEpochs`), never as a session sum.
   */
  readonly bytesShed: number | null;
  /**
   * Fullness of the main thread's last request before each compaction the recorded session made
   * (the client compacted there), in order; empty when it never compacted.
   */
  readonly atCompaction: number[];
  /** For each of `atCompaction`: whether the API refused that request (its fullness is then over 1). */
  readonly atCompactionRefused: boolean[];
  /** Body bytes the last request of each conversation was smaller by; `null` for shed, as `bytesShed`. */
  readonly finalBytesSaved: number | null;
  /** Thinking blocks in the main thread's requests (count-thinking.ts), as this strategy sent them. */
  readonly thinking: ThinkingFigure;
  readonly series: {
    /** Fullness of each main-thread request, in order. */
    readonly fullness: number[];
    /** Cumulative cost after each main-thread request (all conversations' cost up to its time). */
    readonly cumulativeCostUsd: number[];
    /** Indexes into `fullness` where an epoch (or a clearing change) happened. */
    readonly epochAt: number[];
    /** Indexes into `fullness` the API refused: there `fullness` is the refused prompt's, over 1. */
    readonly refusedAt: number[];
  };
}

/**
 * Thinking blocks sent, and removed (in the client's body, not in this strategy's: dropped for the
 * prefix check, or inside a shed span), summed over the main thread's requests and in its last one.
 */
export interface ThinkingFigure {
  readonly sent: number;
  readonly removed: number;
  readonly finalSent: number;
  readonly finalRemoved: number;
}

/** Accumulates one strategy. */
export class StrategyTally {
  cacheRead = 0;
  cacheWrite = 0;
  uncached = 0;
  output = 0;
  cost = 0;
  epochs = 0;
  readonly shed = new Map<string, number>();
  finalBytesSaved = 0;
  refused = 0;
  rescued = 0;
  readonly refusedWhy: Partial<Record<RefusedWhy, number>> = {};
  /** Whether shed figures are reported per epoch instead of as `bytesShed`. */
  perEpoch = false;
  readonly atCompaction: number[] = [];
  readonly atCompactionRefused: boolean[] = [];
  readonly fullness: number[] = [];
  readonly cumulativeCost: number[] = [];
  readonly epochAt: number[] = [];
  readonly refusedAt: number[] = [];
  /** The highest fullness of an answered main-thread request, and the last one's. */
  #peak = 0;
  #lastAnswered = 0;
  #thinking: ThinkingFigure = { sent: 0, removed: 0, finalSent: 0, finalRemoved: 0 };

  /**
   * Adds one answered, priced request; `main` ones enter the fullness series at `tokens` (the
   * prompt the API would have counted, the same figure the window was checked against).
   */
  add(priced: PricedRequest, window: number, main: boolean, epochHere: boolean, tokens = priced.contextTokens): void {
    this.cacheRead += priced.cacheReadTokens;
    this.cacheWrite += priced.cacheWriteTokens;
    this.uncached += priced.uncachedTokens;
    this.output += priced.outputTokens;
    this.cost += priced.costUsd;
    if (epochHere) this.epochs++;
    if (!main) return;
    if (epochHere) this.epochAt.push(this.fullness.length);
    this.#peak = Math.max(this.#peak, tokens / window);
    this.#lastAnswered = tokens / window;
    this.fullness.push(tokens / window);
    this.cumulativeCost.push(this.cost);
  }

  /** A request the API refused as too long: nothing billed, nothing cached, no peak. */
  refuse(tokens: number, window: number, main: boolean, epochHere: boolean, why: RefusedWhy): void {
    this.refused++;
    this.refusedWhy[why] = (this.refusedWhy[why] ?? 0) + 1;
    if (epochHere) this.epochs++;
    if (!main) return;
    if (epochHere) this.epochAt.push(this.fullness.length);
    this.refusedAt.push(this.fullness.length);
    this.fullness.push(tokens / window);
    this.cumulativeCost.push(this.cost);
  }

  /** The fullness of the latest main-thread request is where the recorded session compacted. */
  markCompaction(): void {
    const last = this.fullness.at(-1);
    if (last === undefined) return;
    this.atCompaction.push(last);
    this.atCompactionRefused.push(this.refusedAt.at(-1) === this.fullness.length - 1);
  }

  /** One main-thread request's thinking blocks: `inBody` in the client's body, `sent` in this strategy's. */
  addThinking(inBody: number, sent: number): void {
    const removed = Math.max(0, inBody - sent);
    const t = this.#thinking;
    this.#thinking = { sent: t.sent + sent, removed: t.removed + removed, finalSent: sent, finalRemoved: removed };
  }

  /** Records blocks kept out of the window (a block already counted is not counted again). */
  addShed(key: string, bytes: number): void {
    this.shed.set(key, bytes);
  }

  summary(runway: Runway): StrategySummary {
    const read = Math.round(this.cacheRead);
    const write = Math.round(this.cacheWrite);
    const uncached = Math.round(this.uncached);
    const all = read + write + uncached;
    return {
      peakFullness: round4(this.#peak),
      finalFullness: round4(this.#lastAnswered),
      runway,
      refused: this.refused,
      refusedWhy: { ...this.refusedWhy },
      rescued: this.rescued,
      cacheReadTokens: read,
      cacheWriteTokens: write,
      uncachedTokens: uncached,
      outputTokens: Math.round(this.output),
      cacheHitRatio: all > 0 ? round4(read / all) : 0,
      costUsd: Math.round(this.cost * 10_000) / 10_000,
      epochs: this.epochs,
      bytesShed: this.perEpoch ? null : [...this.shed.values()].reduce((a, b) => a + b, 0),
      atCompaction: this.atCompaction.map(round4),
      atCompactionRefused: [...this.atCompactionRefused],
      finalBytesSaved: this.perEpoch ? null : this.finalBytesSaved,
      thinking: { ...this.#thinking },
      series: {
        fullness: this.fullness.map(round4),
        cumulativeCostUsd: this.cumulativeCost.map((c) => Math.round(c * 10_000) / 10_000),
        epochAt: this.epochAt,
        refusedAt: this.refusedAt,
      },
    };
  }
}

function round4(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}
