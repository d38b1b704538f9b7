/**
 * One step of a session's replay (replay-session.ts): the body the client sent for a request,
 * rebuilt, and what every strategy's pricing of it shares: its conversation's caches, its TTL,
 * and the token count of a body sent in its place.
 */
import type { CachedRequest } from './prompt-cache.js';
import { PromptCache } from './prompt-cache.js';
import type { RebuiltConversation, RebuiltRequest } from './rebuild-conversations.js';
import { regionOfBody, type CacheRegion } from './request-body.js';
import { PREFIX_CHECK_STAND_IN } from './replay-options.js';
import type { Step } from './session-steps.js';
import type { ConversationCaches, SessionRun } from './session-run.js';
import { STRATEGIES, type StrategyName } from './strategy-tally.js';
import type { CacheTtl } from './ttl-rules.js';
import { countThinking } from './count-thinking.js';

/** A request as the step prices it. */
export interface StepFrame {
  readonly conversation: RebuiltConversation;
  readonly request: RebuiltRequest;
  readonly n: number;
  /** The conversation's fitted system-prompt-and-tools tokens, and the tokens per byte. */
  readonly prefix: number;
  readonly tokensPerByte: number;
  readonly main: boolean;
  readonly ttl: CacheTtl;
  readonly caches: ConversationCaches;
  /** The model the bodies name (`PREFIX_CHECK_STAND_IN` on a prefix-check replay). */
  readonly sentModel: string;
  /** The model whose prices bill it: `--price-as`, else the recorded one. */
  readonly priceModel: string;
  /** The body as the client sent it, its cached region, and its thinking blocks (main thread only). */
  readonly body: Uint8Array;
  readonly region: CacheRegion;
  readonly thinkingIn: number;
  /** The recorded prompt: input, cache reads and cache writes. */
  readonly recordedTotal: number;
  readonly inRunway: boolean;
  /** The bytes each strategy sent for this request, filled in as each is settled. */
  readonly sentBytes: Partial<Record<StrategyName, number>>;
  /** The cache region of each body priced for this step, made once per body (strategies that change nothing send the client's). */
  readonly regions: Map<Uint8Array, CacheRegion>;
  /** The thinking blocks of each main-thread body priced for this step, counted once per body. */
  readonly thinking: Map<Uint8Array, number>;
}

/** Rebuilds a step's body and opens its conversation's caches on its first request. */
export function openStepFrame(run: SessionRun, { conversation: c, request, n }: Step): StepFrame {
  const prefix = run.model.prefixTokens.get(c.id) ?? 0;
  const ttl = run.ttls.get(c.id)?.[n] ?? '5m';
  const main = run.isMain(c);
  const sentModel = run.options.prefixCheck === true ? PREFIX_CHECK_STAND_IN : request.model;
  const body = run.builders.get(c.id)?.build(sentModel, request.messages, ttl) ?? new Uint8Array(0);
  const u = request.usage;
  const region = regionOfBody(body);
  const thinkingIn = main ? countThinking(body) : 0;
  return {
    conversation: c,
    request,
    n,
    prefix,
    tokensPerByte: run.model.tokensPerByte,
    main,
    ttl,
    caches: cachesOf(run, c.id, request, prefix),
    sentModel,
    priceModel: run.options.priceAs ?? request.model,
    body,
    region,
    thinkingIn,
    recordedTotal: u.input + u.cacheRead + u.cacheWrite,
    inRunway: c === run.runwayOf,
    sentBytes: {},
    regions: new Map([[body, region]]),
    thinking: new Map([[body, thinkingIn]]),
  };
}

/** A conversation's caches, opened on its first request. */
function cachesOf(run: SessionRun, id: string, request: RebuiltRequest, prefix: number): ConversationCaches {
  const known = run.caches.get(id);
  if (known !== undefined) return known;
  // The first request read the system prompt and tools from a cache some earlier call wrote.
  const warm = request.usage.cacheRead >= prefix / 2 ? { model: request.model, timeMs: request.sentMs } : undefined;
  const caches = Object.fromEntries(
    [...STRATEGIES, 'calibration' as const].map((s) => [s, new PromptCache(run.model.tokensPerByte, prefix, warm)]),
  ) as ConversationCaches;
  run.caches.set(id, caches);
  return caches;
}

/** A body sent for the step's request, as the prompt cache takes it. The cache's clock is when requests were sent, as in the TTL back-test. */
export function cachedRequest(frame: StepFrame, bytes: Uint8Array, blocks: number): CachedRequest {
  const { request } = frame;
  return {
    region: regionOf(frame, bytes),
    blocks,
    model: request.model,
    timeMs: request.sentMs,
    ttl: frame.ttl,
    priceModel: frame.priceModel,
    uncachedTokens: request.usage.input,
    outputTokens: request.usage.output,
  };
}

/** The thinking blocks of a body sent for the step, counted once per body. */
export function thinkingOf(frame: StepFrame, bytes: Uint8Array): number {
  let n = frame.thinking.get(bytes);
  if (n === undefined) {
    n = countThinking(bytes);
    frame.thinking.set(bytes, n);
  }
  return n;
}

/** The cache region of a body sent for the step, made once per body. */
function regionOf(frame: StepFrame, bytes: Uint8Array): CacheRegion {
  let region = frame.regions.get(bytes);
  if (region === undefined) {
    region = regionOfBody(bytes);
    frame.regions.set(bytes, region);
  }
  return region;
}

/**
 * The prompt the API would count for a body sent in place of the client's: the recorded count,
 * less what the strategy took out (the same reading the engines are handed after a 200).
 */
export function tokensOf(frame: StepFrame, sent: Uint8Array): number {
  const r = frame.tokensPerByte;
  return frame.recordedTotal > 0 ? frame.recordedTotal - r * (frame.body.length - sent.length) : frame.prefix + r * regionOf(frame, sent).length;
}
