/**
 * The replay's calibration (replay-session.ts): the prompt-cache model run on each body as the
 * client sent it, summed against what the provider reported for the same requests.
 */
import type { TokenModel } from './fit-tokens.js';
import { MissCounter } from './miss-counter.js';
import { priceRecorded, type PricedRequest } from './prompt-cache.js';
import type { RebuiltRequest } from './rebuild-conversations.js';
import type { Calibration } from './session-report.js';
import type { CacheTtl } from './ttl-rules.js';

/** One request as recorded and as the model priced it. */
export interface CalibrationSample {
  readonly conversation: string;
  readonly request: RebuiltRequest;
  /** The request before it in its conversation, and that one's TTL; absent for the first. */
  readonly before: RebuiltRequest | undefined;
  readonly beforeTtl: CacheTtl;
  readonly modelled: PricedRequest;
  readonly main: boolean;
  readonly window: number;
  /** The model whose prices bill it, when not the request's (`replay --price-as`). */
  readonly priceModel?: string;
}

/** Sums the model against the record, request by request, in the replay's order. */
export class CalibrationTally {
  #recordedRead = 0;
  #recordedWrite = 0;
  #recordedUncached = 0;
  #recordedCost = 0;
  #recordedPeak = 0;
  #modelContext = 0;
  #modelRead = 0;
  #modelWrite = 0;
  #recordedContext = 0;
  #absError = 0;
  #measured = 0;
  #misses = 0;
  #missedWrite = 0;
  readonly #turns = new MissCounter();
  readonly #lastModelled = new Map<string, PricedRequest>();

  /** Adds one request. */
  add(sample: CalibrationSample): void {
    const { request, modelled } = sample;
    const u = request.usage;
    const recordedTotal = u.input + u.cacheRead + u.cacheWrite;
    if (modelled.cacheReadTokens - u.cacheRead > recordedTotal / 10) {
      this.#misses++;
      this.#missedWrite += u.cacheWrite - modelled.cacheWriteTokens;
    }
    const modelBefore = this.#lastModelled.get(sample.conversation);
    if (sample.before !== undefined && modelBefore !== undefined) this.#turns.add(sample.before, request, sample.beforeTtl, modelBefore, modelled);
    this.#lastModelled.set(sample.conversation, modelled);
    this.#modelRead += modelled.cacheReadTokens;
    this.#modelWrite += modelled.cacheWriteTokens;
    this.#recordedRead += u.cacheRead;
    this.#recordedWrite += u.cacheWrite;
    this.#recordedUncached += u.input;
    // A model the table does not know adds nothing here; the report names it (its unpricedModels).
    this.#recordedCost += priceRecorded(sample.priceModel ?? request.model, u) ?? 0;
    if (sample.main) this.#recordedPeak = Math.max(this.#recordedPeak, recordedTotal / sample.window);
    if (recordedTotal > 0) {
      this.#modelContext += modelled.contextTokens;
      this.#recordedContext += recordedTotal;
      this.#absError += Math.abs(modelled.contextTokens - recordedTotal) / recordedTotal;
      this.#measured++;
    }
  }

  /** The calibration of everything added, with the fitted model it ran on. */
  calibration(model: TokenModel): Calibration {
    return {
      cacheReadError: relError(this.#modelRead, this.#recordedRead),
      cacheWriteError: relError(this.#modelWrite, this.#recordedWrite),
      contextError: relError(this.#modelContext, this.#recordedContext),
      meanAbsRequestError: this.#measured > 0 ? round4(this.#absError / this.#measured) : 0,
      tokensPerByte: round4(model.tokensPerByte),
      unexplainedMisses: { requests: this.#misses, extraWriteTokens: Math.round(this.#missedWrite) },
      misses: this.#turns.tally(),
      prefixTokens: Object.fromEntries([...model.prefixTokens].map(([k, v]) => [k, Math.round(v)])),
      recorded: {
        cacheReadTokens: this.#recordedRead,
        cacheWriteTokens: this.#recordedWrite,
        uncachedTokens: this.#recordedUncached,
        costUsd: Math.round(this.#recordedCost * 10_000) / 10_000,
        peakFullness: round4(this.#recordedPeak),
      },
    };
  }
}

function relError(model: number, recorded: number): number {
  return recorded > 0 ? round4((model - recorded) / recorded) : 0;
}

/** Rounds to four decimals, as every ratio of the report is. */
export function round4(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}
