/**
 * A model of the provider's prompt cache for one conversation, fed one request at a time. Pure.
 *
 * - The system prompt and tools (the fitted prefix) sit behind the client's system breakpoints:
 *   read while their entry lives, else written.
 * - Each request writes an entry at its breakpoint (the end of `messages`). A later request
 *   reads the longest live entry whose bytes are a prefix of its own, of the same model, whose
 *   breakpoint lies within the provider's 20-block lookback of its own breakpoint.
 * - Everything else up to the breakpoint is written; the tokens after it are uncached (the
 *   recorded `input_tokens`, the same under every strategy).
 * - An entry lives for its TTL after its last write or read (reads refresh it).
 */
import { costOf, priceOf } from '../core/price-table.js';
import { regionStartsWith, type CacheRegion } from './request-body.js';

/** The provider checks for hits at most this many blocks before a breakpoint. */
export const CACHE_LOOKBACK_BLOCKS = 20;
export const TTL_5M_MS = 5 * 60_000;
export const TTL_1H_MS = 60 * 60_000;
/** Entries kept for matching: older ones are out of the lookback in any real session. */
const MAX_ENTRIES = 32;

/** One request as sent, as far as the cache is concerned. */
export interface CachedRequest {
  /** cache-region bytes (request-body.ts `regionOfBody`). */
  readonly region: CacheRegion;
  readonly blocks: number;
  readonly model: string;
  readonly timeMs: number;
  readonly ttl: '5m' | '1h';
  /** The model whose prices bill it, when not `model` (`replay --price-as`). */
  readonly priceModel?: string;
  /** Tokens after the last breakpoint (the recorded `input_tokens`). */
  readonly uncachedTokens: number;
  readonly outputTokens: number;
}

/** What the model says the provider would have reported and billed. */
export interface PricedRequest {
  readonly contextTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
  readonly uncachedTokens: number;
  readonly outputTokens: number;
  readonly costUsd: number;
  /** Whether the model has a price in the table (unpriced requests cost 0). */
  readonly priced: boolean;
}

interface Entry {
  readonly region: CacheRegion;
  readonly blocks: number;
  readonly model: string;
  expiresMs: number;
}

/** The cache of one conversation under one strategy. */
export class PromptCache {
  readonly #entries: Entry[] = [];
  readonly #prefixExpiry = new Map<string, number>();

  /**
   * `warmPrefix`: the system prompt and tools were already cached when the conversation began
   * (an earlier session or conversation wrote them): the recorded first request says so.
   */
  constructor(
    readonly tokensPerByte: number,
    readonly prefixTokens: number,
    warmPrefix?: { readonly model: string; readonly timeMs: number },
  ) {
    if (warmPrefix !== undefined) this.#prefixExpiry.set(warmPrefix.model, warmPrefix.timeMs);
  }

  /** Prices one request and updates the cache as the provider would. */
  send(request: CachedRequest): PricedRequest {
    const { timeMs, model } = request;
    const ttlMs = request.ttl === '1h' ? TTL_1H_MS : TTL_5M_MS;
    const contextTokens = this.prefixTokens + this.tokensPerByte * request.region.length;
    const prefixHit = isAlive(this.#prefixExpiry.get(model), timeMs);
    this.#prefixExpiry.set(model, expiry(timeMs, ttlMs));
    let hitBytes = 0;
    for (let i = this.#entries.length - 1; i >= 0; i--) {
      const e = this.#entries[i];
      if (e === undefined || e.model !== model || !isAlive(e.expiresMs, timeMs)) continue;
      if (request.blocks - e.blocks > CACHE_LOOKBACK_BLOCKS || e.region.length <= hitBytes) continue;
      if (regionStartsWith(request.region, e.region)) {
        hitBytes = e.region.length;
        e.expiresMs = expiry(timeMs, ttlMs);
      }
    }
    this.#entries.push({ region: request.region, blocks: request.blocks, model, expiresMs: expiry(timeMs, ttlMs) });
    if (this.#entries.length > MAX_ENTRIES) this.#entries.shift();
    const cacheReadTokens = (prefixHit ? this.prefixTokens : 0) + this.tokensPerByte * hitBytes;
    const uncachedTokens = Math.min(request.uncachedTokens, Math.max(0, contextTokens - cacheReadTokens));
    const cacheWriteTokens = Math.max(0, contextTokens - cacheReadTokens - uncachedTokens);
    const price = priceOf(request.priceModel ?? model, contextTokens);
    const write = request.ttl === '1h' ? { write5m: 0, write1h: cacheWriteTokens } : { write5m: cacheWriteTokens, write1h: 0 };
    const costUsd = price === undefined ? 0 : costOf(price, { input: uncachedTokens, cacheRead: cacheReadTokens, ...write, output: request.outputTokens });
    return { contextTokens, cacheReadTokens, cacheWriteTokens, uncachedTokens, outputTokens: request.outputTokens, costUsd, priced: price !== undefined };
  }
}

/** The bill for what the provider actually reported (the calibration's reference); `undefined` for a model the price table does not know. */
export function priceRecorded(
  model: string,
  usage: { input: number; cacheRead: number; cacheWrite: number; cacheWrite1h: number; output: number },
): number | undefined {
  const price = priceOf(model, usage.input + usage.cacheRead + usage.cacheWrite);
  if (price === undefined) return undefined;
  const write1h = usage.cacheWrite1h;
  return costOf(price, { input: usage.input, cacheRead: usage.cacheRead, write5m: usage.cacheWrite - write1h, write1h, output: usage.output });
}

/** A request without a readable time never expires anything. */
function isAlive(expiresMs: number | undefined, timeMs: number): boolean {
  return expiresMs !== undefined && (Number.isNaN(timeMs) || Number.isNaN(expiresMs) || timeMs <= expiresMs);
}

function expiry(timeMs: number, ttlMs: number): number {
  return timeMs + ttlMs;
}
