/**
 * Replays one session (its conversations) under each strategy and prices every request with the
 * prompt-cache model, after fitting tokens to bytes on the session's own recorded usage.
 */
import { DEFAULT_TOKENS_PER_BYTE, tokenThresholdFor, type ElisionPolicy } from '../core/index.js';
import { contextWindowFor } from '../rescue/index.js';
import { sha256Hex } from '../state/sha256-hex.js';
import { clearToolUses } from './clear-tool-uses.js';
import { fitTokens, type TokenModel } from './fit-tokens.js';
import { priceRecorded, PromptCache, type CachedRequest, type PricedRequest } from './prompt-cache.js';
import type { RebuiltConversation, RebuiltRequest, RecordedUsage } from './rebuild-conversations.js';
import { BodyBuilder, cacheRegion } from './request-body.js';
import { ReplayRefaults, type RefaultFigure } from './replay-refaults.js';
import { RescueReplay } from './rescue-replay.js';
import { rewriteEveryRequest } from './rewrite-every-request.js';
import { ShedAccount, type ShedHeld } from './shed-account.js';
import type { ShedEpochFigure } from './shed-epochs.js';
import { STRATEGIES, StrategyTally, type StrategyName, type StrategySummary } from './strategy-tally.js';
import { conversationTtls, isBilledWarm, isPredictedWarm, type CacheTtl } from './ttl-rules.js';

/** The client's auto-compaction fires about this many tokens short of the window. */
export const AUTO_COMPACT_MARGIN_TOKENS = 13_000;

/** How to replay. */
export interface ReplayOptions {
  readonly threshold: number;
  /** `--rescue-tokens`: absent, the default for the window; 0, none (core/latch-threshold.ts). */
  readonly rescueTokens?: number;
  readonly policy: ElisionPolicy;
  readonly window?: number;
  /** Shed mode's `--horizon N`: the turns a burst must pay back within (default: as many as already run). */
  readonly horizon?: number;
  /** An empty directory for the rescue's state (the caller creates and removes it). */
  readonly stateDir: string;
  /** Another for shed mode's: two state directories, each one `ctxshed verify` passes. */
  readonly shedStateDir: string;
}

/** The model against what the provider reported, for the session as recorded. */
export interface Calibration {
  /** (modelled - recorded) / recorded, summed over the session. */
  readonly cacheReadError: number;
  readonly cacheWriteError: number;
  /** The same for the whole context (input + cache read + cache write). */
  readonly contextError: number;
  /** Mean of |modelled - recorded| / recorded context per request. */
  readonly meanAbsRequestError: number;
  readonly tokensPerByte: number;
  /**
   * Requests where the provider read clearly less than the model (by over a tenth of the context):
   * cache misses the transcript cannot explain (a changed system prompt, an eviction). Their
   * extra writes are most of a large cache-write error.
   */
  readonly unexplainedMisses: { readonly requests: number; readonly extraWriteTokens: number };
  /**
   * Each request against the one before it in its conversation, billed warm or cold by the rule
   * of the TTL back-test (ttl-rules.ts), and the model's own figures judged by the same rule.
   */
  readonly misses: MissTally;
  /** The fitted system-prompt-and-tools size of each conversation. */
  readonly prefixTokens: Record<string, number>;
  readonly recorded: { readonly cacheReadTokens: number; readonly cacheWriteTokens: number; readonly uncachedTokens: number; readonly costUsd: number; readonly peakFullness: number };
}

/** The provider's cache misses, as far as the model foresaw them. */
export interface MissTally {
  /** Requests with a request before them in their conversation. */
  readonly judged: number;
  /**
   * Billed cold (the previous prefix written again), and cold in the model too: after a gap over
   * the TTL (the model expires entries on the same clock), a change of model (entries are per
   * model), or otherwise (a jump past the 20-block lookback).
   */
  readonly explained: { readonly requests: number; readonly afterTtl: number; readonly modelChange: number; readonly other: number; readonly cacheWriteTokens: number };
  /** Billed cold where the model read the previous prefix: nothing in the transcript explains them. */
  readonly unforeseeable: { readonly requests: number; readonly cacheWriteTokens: number };
  /** Billed warm where the model was cold; `afterTtl`: the cache outlived the model's clock. */
  readonly modelColdBilledWarm: { readonly requests: number; readonly afterTtl: number };
}

/** One session's replay. */
export interface SessionReport {
  readonly file: string;
  readonly requests: number;
  readonly conversations: number;
  readonly window: number;
  /** The token threshold in force (`--rescue-tokens`, or the default for a window over 200,000); absent: none. */
  readonly tokenThreshold?: number;
  readonly calibration: Calibration;
  readonly strategies: Record<StrategyName, StrategySummary>;
  /** Shed mode's epochs, one figure each: its shed is reported per epoch, never as a session sum. */
  readonly shedEpochs: readonly ShedEpochFigure[];
  /**
   * Requests over the threshold on which shed latched nothing, by why (shed-hold.ts), and the
   * gate's figures the first time the gate held back.
   */
  readonly shedHeld: ShedHeld;
  /** Why the rescue, the shed or the per-request rewrite left a request, block or span alone (not "no epoch"). */
  readonly passthrough: Record<string, number>;
  readonly stateFailures: readonly string[];
  readonly unpricedModels: readonly string[];
  /** When the client compacted (or would): window minus the margin. */
  readonly autoCompactAt: number;
  /** Rescue's refaults: elided blocks whose file the session read again later (replay-refaults.ts). */
  readonly refaults: RefaultFigure;
  /** The same for shed mode: tool results in its spans whose file the session read again later. */
  readonly shedRefaults: RefaultFigure;
}

interface Step {
  readonly conversation: RebuiltConversation;
  readonly request: RebuiltRequest;
  readonly n: number;
}

/** Replays a session's conversations. */
export async function replaySession(file: string, conversations: readonly RebuiltConversation[], options: ReplayOptions): Promise<SessionReport> {
  const window = contextWindowFor(options.window, undefined);
  const builders = new Map(conversations.map((c) => [c.id, new BodyBuilder()]));
  const model = fitModel(conversations, builders);
  const hasMain = conversations.some((c) => c.kind === 'main');
  const isMain = (c: RebuiltConversation): boolean => !hasMain || c.kind === 'main';
  const tallies = Object.fromEntries(STRATEGIES.map((s) => [s, new StrategyTally()])) as Record<StrategyName, StrategyTally>;
  const caches = new Map<string, Record<StrategyName, PromptCache>>();
  const lastSets = new Map<string, Record<'perRequest' | 'clearToolUses', string>>();
  const firstLast = new Map<string, { first: number; last: number; n: number; final: Partial<Record<StrategyName, number>>; finalBytes: Partial<Record<StrategyName, number>> }>();
  const passthrough: Record<string, number> = {};
  const unpriced = new Set<string>();
  const count = (reason: string): void => {
    passthrough[reason] = (passthrough[reason] ?? 0) + 1;
  };
  // The engine measures against the replay's window, never the recorded model's: the sessions
  // were compacted by a client that counted 200,000 unless told otherwise (--window).
  const tokenThreshold = tokenThresholdFor({ threshold: options.threshold, ...(options.rescueTokens === undefined ? {} : { rescueTokens: options.rescueTokens }) }, window);
  const settings = { threshold: options.threshold, policy: options.policy, window, ...(options.rescueTokens === undefined ? {} : { rescueTokens: options.rescueTokens }) };
  const rescue = await RescueReplay.open(options.stateDir, settings);
  // Shed mode is the proxy's own too: the same engine in `--mode shed`, its gate and frozen spans.
  const shed = await RescueReplay.open(options.shedStateDir, { ...settings, mode: 'shed', ...(options.horizon === undefined ? {} : { horizon: options.horizon }) });
  tallies.shed.perEpoch = true;
  const shedAccount = new ShedAccount(options.threshold, options.horizon, shed.state.spansDir, options.rescueTokens);
  const entries = new Map<string, NonNullable<Awaited<ReturnType<RescueReplay['send']>>['conversation']>>();
  const refaults = new ReplayRefaults();
  let recordedRead = 0;
  let recordedWrite = 0;
  let recordedUncached = 0;
  let recordedCost = 0;
  let recordedPeak = 0;
  let modelContext = 0;
  let recordedContext = 0;
  let absError = 0;
  let measured = 0;
  let misses = 0;
  let missedWrite = 0;
  const turns = new MissCounter();
  const ttls = new Map(conversations.map((c) => [c.id, conversationTtls(c.requests.map((r) => r.usage))]));
  const lastRecorded = new Map<string, PricedRequest>();

  for (const { conversation, request, n } of inTimeOrder(conversations)) {
    const c = conversation;
    const prefix = model.prefixTokens.get(c.id) ?? 0;
    const r = model.tokensPerByte;
    const main = isMain(c);
    const ttl = ttls.get(c.id)?.[n] ?? '5m';
    let cache = caches.get(c.id);
    if (cache === undefined) {
      // The first request read the system prompt and tools from a cache some earlier call wrote.
      const warm = request.usage.cacheRead >= prefix / 2 ? { model: request.model, timeMs: request.sentMs } : undefined;
      cache = Object.fromEntries(STRATEGIES.map((s) => [s, new PromptCache(r, prefix, warm)])) as Record<StrategyName, PromptCache>;
      caches.set(c.id, cache);
    }
    const body = builders.get(c.id)?.build(request.model, request.messages, ttl) ?? new Uint8Array(0);
    const region = cacheRegion(body);
    const originalTokens = prefix + r * region.length;
    // The cache's clock is when requests were sent, as in the TTL back-test.
    const cached = (bytes: Uint8Array, blocks: number): CachedRequest => ({
      region: cacheRegion(bytes), blocks, model: request.model, timeMs: request.sentMs, ttl,
      uncachedTokens: request.usage.input, outputTokens: request.usage.output,
    });
    const sentBytes: Partial<Record<StrategyName, number>> = {};
    const priceAs = (s: StrategyName, sent: Uint8Array, epochHere: boolean): PricedRequest => {
      const priced = cache[s].send(s === 'recorded' ? { ...cached(sent, request.blocks), region } : cached(sent, request.blocks));
      if (!priced.priced) unpriced.add(request.model);
      tallies[s].add(priced, window, main, epochHere);
      sentBytes[s] = sent.length;
      return priced;
    };

    // As recorded: the body as the client sent it. Calibration compares it with the usage.
    const u = request.usage;
    const recordedTotal = u.input + u.cacheRead + u.cacheWrite;
    const tokens: Partial<Record<StrategyName, number>> = {};
    const asRecorded = priceAs('recorded', body, false);
    tokens.recorded = asRecorded.contextTokens;
    if (asRecorded.cacheReadTokens - u.cacheRead > recordedTotal / 10) {
      misses++;
      missedWrite += u.cacheWrite - asRecorded.cacheWriteTokens;
    }
    const before = n > 0 ? c.requests[n - 1] : undefined;
    const modelBefore = lastRecorded.get(c.id);
    if (before !== undefined && modelBefore !== undefined) turns.add(before, request, ttls.get(c.id)?.[n - 1] ?? '5m', modelBefore, asRecorded);
    lastRecorded.set(c.id, asRecorded);
    recordedRead += u.cacheRead;
    recordedWrite += u.cacheWrite;
    recordedUncached += u.input;
    recordedCost += priceRecorded(request.model, u);
    if (main) recordedPeak = Math.max(recordedPeak, recordedTotal / window);
    if (recordedTotal > 0) {
      modelContext += tokens.recorded;
      recordedContext += recordedTotal;
      absError += Math.abs(tokens.recorded - recordedTotal) / recordedTotal;
      measured++;
    }

    // ctxshed rescue: the proxy's own pipeline, fed back the reading its handler would take.
    refaults.observe(c.id, request.messages);
    const prepared = await rescue.send(body, request.timeMs, c.agentId);
    if (prepared.reason === undefined && prepared.conversation !== undefined) {
      const skipped = new Set((prepared.skipped ?? []).flatMap((s) => ('ordinal' in s ? [s.ordinal] : [])));
      refaults.elide(c.id, prepared.epochs, request.messages, prepared.conversation.frozen.filter((b) => !skipped.has(b.ordinal)));
    }
    if (prepared.reason !== undefined && prepared.reason !== 'no_epoch') count(`rescue:${prepared.reason}`);
    for (const s of prepared.skipped ?? []) count(`rescue-block:${s.reason}`);
    if (prepared.conversation !== undefined) entries.set(c.id, prepared.conversation);
    tokens.rescue = priceAs('rescue', prepared.body, prepared.latched !== undefined).contextTokens;
    // The provider's reading for the rewritten body: the recorded one, less what the stubs took out.
    const reading = recordedTotal > 0 ? recordedTotal - r * (body.length - prepared.body.length) : tokens.rescue;
    rescue.observe(prepared, { contextTokens: Math.round(reading), requestBytes: prepared.body.length + Math.round(prefix / r) });

    // ctxshed rescue --mode shed: the same, with spans of whole messages and the burst gate.
    shedAccount.beforeSend(c.id, request);
    const shedPrepared = await shed.send(body, request.timeMs, c.agentId);
    if (shedPrepared.reason !== undefined && shedPrepared.reason !== 'no_epoch') count(`shed:${shedPrepared.reason}`);
    for (const s of shedPrepared.skipped ?? []) count(`shed-span:${s.reason}`);
    const shedPriced = priceAs('shed', shedPrepared.body, shedPrepared.latched !== undefined);
    tokens.shed = shedPriced.contextTokens;
    const savedNow = shedAccount.afterSend({
      conversation: c.id, requests: c.requests.length, n, request, body, prepared: shedPrepared, priced: shedPriced, recorded: asRecorded, ttl, tokensPerByte: r,
      ...(main ? { mainIndex: tallies.shed.fullness.length - 1 } : {}),
    });
    const shedReading = recordedTotal > 0 ? recordedTotal - r * savedNow : tokens.shed;
    shed.observe(shedPrepared, { contextTokens: Math.round(shedReading), requestBytes: shedPrepared.body.length + Math.round(prefix / r) });

    // Per-request rewriting: every eligible block, every request.
    const every = rewriteEveryRequest(body, options.policy, `${options.stateDir}/elided`, sha256Hex);
    if (every.reason !== undefined && every.reason !== 'no_epoch') count(`perRequest:${every.reason}`);
    const everyKey = [...every.stubbed.keys()].join(',');
    const sets = lastSets.get(c.id) ?? { perRequest: '', clearToolUses: '' };
    tokens.perRequest = priceAs('perRequest', every.body, everyKey !== sets.perRequest).contextTokens;
    for (const [id, bytes] of every.stubbed) tallies.perRequest.addShed(`${c.id}/${id}`, bytes);

    // Server-side clearing: decided on the full prompt the client sends.
    const clearing = clearToolUses(request.messages, originalTokens);
    const clearedBody = clearing.cleared.size === 0 ? body : new BodyBuilder().build(request.model, clearing.messages);
    const clearKey = [...clearing.cleared.keys()].join(',');
    tokens.clearToolUses = priceAs('clearToolUses', clearedBody, clearKey !== sets.clearToolUses).contextTokens;
    for (const [id, bytes] of clearing.cleared) tallies.clearToolUses.addShed(`${c.id}/${id}`, bytes);
    lastSets.set(c.id, { perRequest: everyKey, clearToolUses: clearKey });
    // The recorded main thread compacted after this request: where each strategy stood then.
    if (main && c.endedInCompaction && n === c.requests.length - 1) for (const s of STRATEGIES) tallies[s].markCompaction();

    const span = firstLast.get(c.id) ?? { first: tokens.recorded, last: tokens.recorded, n: 0, final: {}, finalBytes: {} };
    span.last = tokens.recorded;
    span.n = n + 1;
    span.final = tokens;
    span.finalBytes = sentBytes;
    firstLast.set(c.id, span);
  }

  for (const c of conversations) {
    for (const epoch of entries.get(c.id)?.record?.epochs ?? []) for (const b of epoch.blocks) tallies.rescue.addShed(`${c.id}/${b.toolUseId}`, b.bytes);
    const span = firstLast.get(c.id);
    if (span === undefined) continue;
    const growth = span.n > 1 ? (span.last - span.first) / (span.n - 1) : 0;
    for (const s of STRATEGIES) {
      tallies[s].finalBytesSaved += (span.finalBytes.recorded ?? 0) - (span.finalBytes[s] ?? 0);
      if (isMain(c) && growth > 0) tallies[s].turnsGained += Math.max(0, Math.floor(((span.final.recorded ?? 0) - (span.final[s] ?? 0)) / growth));
    }
  }
  const recordedSummary = tallies.recorded.summary();
  return {
    file,
    requests: conversations.reduce((a, c) => a + c.requests.length, 0),
    conversations: conversations.length,
    window,
    ...(tokenThreshold === undefined ? {} : { tokenThreshold }),
    calibration: {
      cacheReadError: relError(recordedSummary.cacheReadTokens, recordedRead),
      cacheWriteError: relError(recordedSummary.cacheWriteTokens, recordedWrite),
      contextError: relError(modelContext, recordedContext),
      meanAbsRequestError: measured > 0 ? round4(absError / measured) : 0,
      tokensPerByte: round4(model.tokensPerByte),
      unexplainedMisses: { requests: misses, extraWriteTokens: Math.round(missedWrite) },
      misses: turns.tally(),
      prefixTokens: Object.fromEntries([...model.prefixTokens].map(([k, v]) => [k, Math.round(v)])),
      recorded: { cacheReadTokens: recordedRead, cacheWriteTokens: recordedWrite, uncachedTokens: recordedUncached, costUsd: Math.round(recordedCost * 10_000) / 10_000, peakFullness: round4(recordedPeak) },
    },
    strategies: { recorded: recordedSummary, rescue: tallies.rescue.summary(), shed: tallies.shed.summary(), perRequest: tallies.perRequest.summary(), clearToolUses: tallies.clearToolUses.summary() },
    shedEpochs: shedAccount.epochs,
    shedHeld: shedAccount.held(),
    passthrough,
    stateFailures: [...rescue.failures, ...shed.failures.map((f) => `shed: ${f}`)],
    unpricedModels: [...unpriced],
    autoCompactAt: round4((window - AUTO_COMPACT_MARGIN_TOKENS) / window),
    refaults: refaults.figure(conversations.reduce((n, c) => n + (entries.get(c.id)?.record?.epochs ?? []).reduce((k, e) => k + e.blocks.length, 0), 0)),
    shedRefaults: shedAccount.refaults(),
  };
}

/** First pass: every request's message bytes against its recorded context, fitted. */
function fitModel(conversations: readonly RebuiltConversation[], builders: ReadonlyMap<string, BodyBuilder>): TokenModel {
  const samples = [];
  for (const c of conversations) {
    const builder = builders.get(c.id) ?? new BodyBuilder();
    for (const r of c.requests) {
      const tokens = r.usage.input + r.usage.cacheRead + r.usage.cacheWrite;
      if (tokens > 0) samples.push({ conversation: c.id, bytes: cacheRegion(builder.build(r.model, r.messages)).length, tokens });
    }
  }
  const fitted = fitTokens(samples);
  // A conversation without any usage gets the median prefix of the others.
  const prefixes = [...fitted.prefixTokens.values()].sort((a, b) => a - b);
  const fallback = prefixes[Math.floor(prefixes.length / 2)] ?? 0;
  const prefixTokens = new Map(fitted.prefixTokens);
  for (const c of conversations) if (!prefixTokens.has(c.id)) prefixTokens.set(c.id, fallback);
  return { tokensPerByte: fitted.tokensPerByte > 0 ? fitted.tokensPerByte : DEFAULT_TOKENS_PER_BYTE, prefixTokens };
}

/** All requests of all conversations by time, so cumulative cost follows the session's clock. */
function inTimeOrder(conversations: readonly RebuiltConversation[]): Step[] {
  const steps = conversations.flatMap((conversation) => conversation.requests.map((request, n) => ({ conversation, request, n })));
  // Stable sort: requests without a time keep their file order.
  return steps.sort((a, b) => (Number.isNaN(a.request.timeMs) || Number.isNaN(b.request.timeMs) ? 0 : a.request.timeMs - b.request.timeMs));
}

/** Counts each request's bill against the model's call on the same request. */
class MissCounter {
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
    return { judged: this.judged, explained: { ...this.explained }, unforeseeable: { ...this.unforeseeable }, modelColdBilledWarm: { ...this.modelColdBilledWarm } };
  }
}

function asUsage(p: PricedRequest): RecordedUsage {
  return { input: p.uncachedTokens, cacheRead: p.cacheReadTokens, cacheWrite: p.cacheWriteTokens, cacheWrite1h: 0, output: p.outputTokens };
}

function relError(model: number, recorded: number): number {
  return recorded > 0 ? round4((model - recorded) / recorded) : 0;
}

function round4(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}
