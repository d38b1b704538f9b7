/**
 * The provider's cache misses against the model's: each recorded request set against the one
 * before it in its conversation, billed warm or cold by the TTL back-test's rule (ttl-rules.ts),
 * and the model's own figures for the same two requests judged by the same rule. Pure.
 */
import type { PricedRequest } from './prompt-cache.js';
import type { RebuiltRequest, RecordedUsage } from './rebuild-conversations.js';
import { isBilledWarm, isPredictedWarm, type CacheTtl } from './ttl-rules.js';

/** The provider's cache misses, as far as the model foresaw them. */
export interface MissTally {
  /** Requests with a request before them in their conversation. */
  readonly judged: number;
  /**
   * Billed cold (the previous prefix written again), and cold in the model too: after a gap over
   * the TTL (the model expires entries on the same clock), a change of model (entries are per
   * model), or otherwise (a jump past the 20-block lookback).
   */
  readonly explained: {
    readonly requests: number;
    readonly afterTtl: number;
    readonly modelChange: number;
    readonly other: number;
    readonly cacheWriteTokens: number;
  };
  /** Billed cold where the model read the previous prefix: nothing in the transcript explains them. */
  readonly unforeseeable: { readonly requests: number; readonly cacheWriteTokens: number };
  /** Billed warm where the model was cold; `afterTtl`: the cache outlived the model's clock. */
  readonly modelColdBilledWarm: { readonly requests: number; readonly afterTtl: number };
}

/** Counts each request's bill against the model's call on the same request. */
export class MissCounter {
  judged = 0;
  readonly explained = { requests: 0, afterTtl: 0, modelChange: 0, other: 0, cacheWriteTokens: 0 };
  readonly unforeseeable = { requests: 0, cacheWriteTokens: 0 };
  readonly modelColdBilledWarm = { requests: 0, afterTtl: 0 };

  /** `before`/`request`: the recorded pair; `modelBefore`/`modelled`: the model's figures for them. */
  add(before: RebuiltRequest, request: RebuiltRequest, ttl: CacheTtl, modelBefore: PricedRequest, modelled: PricedRequest): void {
    this.judged++;
    const billedWarm = isBilledWarm(before.usage, request.usage);
    const modelWarm = isBilledWarm(asUsage(modelBefore), asUsage(modelled));
    const gapMs = request.sentMs - before.sentMs;
    const afterTtl = !Number.isNaN(gapMs) && !isPredictedWarm(gapMs, ttl);
    if (!billedWarm && !modelWarm) {
      this.explained.requests++;
      this.explained.cacheWriteTokens += request.usage.cacheWrite;
      if (before.model !== request.model) this.explained.modelChange++;
      else if (afterTtl) this.explained.afterTtl++;
      else this.explained.other++;
    } else if (!billedWarm) {
      this.unforeseeable.requests++;
      this.unforeseeable.cacheWriteTokens += request.usage.cacheWrite;
    } else if (!modelWarm) {
      this.modelColdBilledWarm.requests++;
      if (afterTtl && before.model === request.model) this.modelColdBilledWarm.afterTtl++;
    }
  }

  tally(): MissTally {
    return {
      judged: this.judged,
      explained: { ...this.explained },
      unforeseeable: { ...this.unforeseeable },
      modelColdBilledWarm: { ...this.modelColdBilledWarm },
    };
  }
}

function asUsage(p: PricedRequest): RecordedUsage {
  return { input: p.uncachedTokens, cacheRead: p.cacheReadTokens, cacheWrite: p.cacheWriteTokens, cacheWrite1h: 0, output: p.outputTokens };
}
