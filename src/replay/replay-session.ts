/**
 * Replays one session (its conversations) under each strategy and prices every request with the
 * prompt-cache model, after fitting tokens to bytes on the session's own recorded usage.
 */
import { DEFAULT_TOKENS_PER_BYTE, tokenThresholdFor, type ElisionPolicy, type LatchAt } from '../core/index.js';
import { contextWindowFor, DEFAULT_CONTEXT_WINDOW } from '../rescue/index.js';
import { sha256Hex } from '../state/sha256-hex.js';
import { clearToolUses } from './clear-tool-uses.js';
import { countThinking } from './count-thinking.js';
import { findCompactionPoint, runwayConversation, type CompactionPoint } from './compaction-point.js';
import { fitTokens, type TokenModel } from './fit-tokens.js';
import { MissCounter, type MissTally } from './miss-counter.js';
import { priceRecorded, PromptCache, type CachedRequest, type PricedRequest } from './prompt-cache.js';
import type { RebuiltConversation, RebuiltRequest } from './rebuild-conversations.js';
import { BodyBuilder, cacheRegion } from './request-body.js';
import { ReplayRefaults, type RefaultFigure } from './replay-refaults.js';
import { RescueReplay } from './rescue-replay.js';
import { rewriteEveryRequest } from './rewrite-every-request.js';
import { RunwayCounter, withRatios, type RunwayEnd } from './runway.js';
import { ShedAccount, type ShedHeld } from './shed-account.js';
import type { ShedEpochFigure } from './shed-epochs.js';
import { STRATEGIES, StrategyTally, type StrategyName, type StrategySummary } from './strategy-tally.js';
import { conversationTtls } from './ttl-rules.js';
import { refusedOverWindow, sendWithinWindow, type RefusedWhy } from './window-refusal.js';

export type { MissTally } from './miss-counter.js';

/** Claude Code names its compaction call's agent `acompact-<id>` (file `agent-acompact-<id>.jsonl`). */
const COMPACTION_AGENT_PREFIX = 'acompact';

/**
 * What every strategy is priced on (docs/economics.md): the session up to the main thread's
 * first compaction, and nothing after it. The conversation after a compaction is the client's
 * answer to a window the strategies may not have filled, and no transcript says what they would
 * have sent instead; so neither it nor the compaction's own call is priced, for any strategy.
 */
export const COST_BASIS = 'up to the first compaction, none after it (every strategy)';

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
  /**
   * Replay as if the session's model ran the prefix check on thinking blocks: every body names
   * `PREFIX_CHECK_STAND_IN` instead of the recorded model (prices stay the recorded model's).
   */
  readonly prefixCheck?: boolean;
  /** The engine's `latchAt` on a prefix-check model (core/thinking/turn-place.ts); absent: its default. */
  readonly latchAt?: LatchAt;
}

/** The model a `prefixCheck` replay's bodies name (core/thinking/prefix-check-models.ts). */
export const PREFIX_CHECK_STAND_IN = 'claude-opus-5-5';

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
  readonly recorded: {
    readonly cacheReadTokens: number;
    readonly cacheWriteTokens: number;
    readonly uncachedTokens: number;
    readonly costUsd: number;
    readonly peakFullness: number;
  };
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
  /** The compaction point as a fraction of the window (compaction-point.ts). */
  readonly autoCompactAt: number;
  /** The compaction point in tokens, where it came from, and the recorded first compaction. */
  readonly compactionPoint: CompactionPoint;
  /** What cost is priced on (`COST_BASIS`), and the requests left out under it. */
  readonly costBasis: { readonly basis: string; readonly replayedRequests: number; readonly afterCompactionRequests: number };
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
  // Transcripts carry no beta header: the session ran at the default window (1M sessions are rare).
  const point = findCompactionPoint(conversations, window, DEFAULT_CONTEXT_WINDOW);
  const runwayOf = runwayConversation(conversations);
  const runways = Object.fromEntries(STRATEGIES.map((s) => [s, new RunwayCounter(point.tokens)])) as Record<StrategyName, RunwayCounter>;
  const tallies = Object.fromEntries(STRATEGIES.map((s) => [s, new StrategyTally()])) as Record<StrategyName, StrategyTally>;
  const caches = new Map<string, Record<StrategyName | 'calibration', PromptCache>>();
  const lastSets = new Map<string, Record<'perRequest' | 'clearToolUses', string>>();
  const firstLast = new Map<string, { finalBytes: Partial<Record<StrategyName, number>> }>();
  const passthrough: Record<string, number> = {};
  const unpriced = new Set<string>();
  const count = (reason: string): void => {
    passthrough[reason] = (passthrough[reason] ?? 0) + 1;
  };
  // The engine measures against the replay's window, never the recorded model's: the sessions
  // were compacted by a client that counted 200,000 unless told otherwise (--window).
  const tokenThreshold = tokenThresholdFor(
    { threshold: options.threshold, ...(options.rescueTokens === undefined ? {} : { rescueTokens: options.rescueTokens }) },
    window,
  );
  const settings = {
    threshold: options.threshold,
    policy: options.policy,
    window,
    ...(options.rescueTokens === undefined ? {} : { rescueTokens: options.rescueTokens }),
    ...(options.latchAt === undefined ? {} : { latchAt: options.latchAt }),
  };
  const rescue = await RescueReplay.open(options.stateDir, settings);
  // Shed mode is the proxy's own too: the same engine in `--mode shed`, its gate and frozen spans.
  const shed = await RescueReplay.open(options.shedStateDir, {
    ...settings,
    mode: 'shed',
    ...(options.horizon === undefined ? {} : { horizon: options.horizon }),
  });
  tallies.shed.perEpoch = true;
  const shedAccount = new ShedAccount(options.threshold, options.horizon, shed.state.spansDir, options.rescueTokens, options.latchAt);
  const entries = new Map<string, NonNullable<Awaited<ReturnType<RescueReplay['send']>>['conversation']>>();
  const refaults = new ReplayRefaults();
  let recordedRead = 0;
  let recordedWrite = 0;
  let recordedUncached = 0;
  let recordedCost = 0;
  let recordedPeak = 0;
  let modelContext = 0;
  let modelRead = 0;
  let modelWrite = 0;
  let recordedContext = 0;
  let absError = 0;
  let measured = 0;
  let misses = 0;
  let missedWrite = 0;
  const turns = new MissCounter();
  const ttls = new Map(conversations.map((c) => [c.id, conversationTtls(c.requests.map((r) => r.usage))]));
  const lastRecorded = new Map<string, PricedRequest>();
  const allSteps = inTimeOrder(conversations);
  const steps = allSteps.filter((step) => isPriced(step, point));

  for (const { conversation, request, n } of steps) {
    const c = conversation;
    const prefix = model.prefixTokens.get(c.id) ?? 0;
    const r = model.tokensPerByte;
    const main = isMain(c);
    const ttl = ttls.get(c.id)?.[n] ?? '5m';
    let cache = caches.get(c.id);
    if (cache === undefined) {
      // The first request read the system prompt and tools from a cache some earlier call wrote.
      const warm = request.usage.cacheRead >= prefix / 2 ? { model: request.model, timeMs: request.sentMs } : undefined;
      cache = Object.fromEntries([...STRATEGIES, 'calibration' as const].map((s) => [s, new PromptCache(r, prefix, warm)])) as Record<
        StrategyName | 'calibration',
        PromptCache
      >;
      caches.set(c.id, cache);
    }
    const sentModel = options.prefixCheck === true ? PREFIX_CHECK_STAND_IN : request.model;
    const body = builders.get(c.id)?.build(sentModel, request.messages, ttl) ?? new Uint8Array(0);
    const thinkingIn = main ? countThinking(body) : 0;
    const region = cacheRegion(body);
    const originalTokens = prefix + r * region.length;
    // The cache's clock is when requests were sent, as in the TTL back-test.
    const cached = (bytes: Uint8Array, blocks: number): CachedRequest => ({
      region: cacheRegion(bytes),
      blocks,
      model: request.model,
      timeMs: request.sentMs,
      ttl,
      uncachedTokens: request.usage.input,
      outputTokens: request.usage.output,
    });
    const u = request.usage;
    const recordedTotal = u.input + u.cacheRead + u.cacheWrite;
    // The prompt the API would count for a body sent in place of this one: the recorded count,
    // less what the strategy took out (the same reading the engines are handed after a 200).
    const tokensOf = (sent: Uint8Array): number =>
      recordedTotal > 0 ? recordedTotal - r * (body.length - sent.length) : prefix + r * cacheRegion(sent).length;
    const inRunway = c === runwayOf;
    const sentBytes: Partial<Record<StrategyName, number>> = {};
    const tokens: Partial<Record<StrategyName, number>> = {};
    /** Prices an answered request, or counts a refused one: never both. */
    const settle = (s: StrategyName, sent: Uint8Array, epochHere: boolean, outcome: Settled): PricedRequest | undefined => {
      const t = tokensOf(sent);
      sentBytes[s] = sent.length;
      if (main) tallies[s].addThinking(thinkingIn, countThinking(sent));
      if (outcome.refused) {
        tallies[s].refuse(t, window, main, epochHere, outcome.why);
        if (inRunway) runways[s].add({ refused: true });
        return undefined;
      }
      const priced = cache[s].send(s === 'recorded' ? { ...cached(sent, request.blocks), region } : cached(sent, request.blocks));
      if (!priced.priced) unpriced.add(request.model);
      tallies[s].add(priced, window, main, epochHere, t);
      if (inRunway) runways[s].add({ refused: false, countTokens: t + u.output });
      tokens[s] = t;
      return priced;
    };
    const byWindow = (sent: Uint8Array): Settled => (refusedOverWindow(tokensOf(sent), window) ? { refused: true, why: 'no_rescue' } : { refused: false });

    // Calibration: the body as the client sent it, against the usage, whatever the window.
    const asRecorded = cache.calibration.send({ ...cached(body, request.blocks), region });
    if (asRecorded.cacheReadTokens - u.cacheRead > recordedTotal / 10) {
      misses++;
      missedWrite += u.cacheWrite - asRecorded.cacheWriteTokens;
    }
    const before = n > 0 ? c.requests[n - 1] : undefined;
    const modelBefore = lastRecorded.get(c.id);
    if (before !== undefined && modelBefore !== undefined) turns.add(before, request, ttls.get(c.id)?.[n - 1] ?? '5m', modelBefore, asRecorded);
    lastRecorded.set(c.id, asRecorded);
    modelRead += asRecorded.cacheReadTokens;
    modelWrite += asRecorded.cacheWriteTokens;
    recordedRead += u.cacheRead;
    recordedWrite += u.cacheWrite;
    recordedUncached += u.input;
    recordedCost += priceRecorded(request.model, u);
    if (main) recordedPeak = Math.max(recordedPeak, recordedTotal / window);
    if (recordedTotal > 0) {
      modelContext += asRecorded.contextTokens;
      recordedContext += recordedTotal;
      absError += Math.abs(asRecorded.contextTokens - recordedTotal) / recordedTotal;
      measured++;
    }
    // As recorded: the client alone, refused when its prompt is over the (replayed) window.
    const recordedPriced = settle('recorded', body, false, byWindow(body));

    // ctxshed rescue: the proxy's own pipeline, fed back the reading its handler would take.
    refaults.observe(c.id, request.messages);
    const rescued = await sendWithinWindow(rescue, { body, timeMs: request.timeMs, agentId: c.agentId, window, tokensOf });
    const prepared = rescued.prepared;
    if (prepared.reason === undefined && prepared.conversation !== undefined) {
      const skipped = new Set((prepared.skipped ?? []).flatMap((s) => ('ordinal' in s ? [s.ordinal] : [])));
      refaults.elide(
        c.id,
        prepared.epochs,
        request.messages,
        prepared.conversation.frozen.filter((b) => !skipped.has(b.ordinal)),
      );
    }
    if (prepared.reason !== undefined && prepared.reason !== 'no_epoch') count(`rescue:${prepared.reason}`);
    for (const s of prepared.skipped ?? []) count(`rescue-block:${s.reason}`);
    if (prepared.conversation !== undefined) entries.set(c.id, prepared.conversation);
    if (rescued.kind === 'answered' && rescued.rescued) tallies.rescue.rescued++;
    settle('rescue', prepared.body, prepared.latched !== undefined, rescued.kind === 'refused' ? { refused: true, why: rescued.why } : { refused: false });
    if (rescued.kind === 'answered')
      rescue.observe(prepared, { contextTokens: Math.round(rescued.tokens), requestBytes: prepared.body.length + Math.round(prefix / r) });

    // ctxshed rescue --mode shed: the same, with spans of whole messages and the burst gate.
    shedAccount.beforeSend(c.id, request);
    const shedOut = await sendWithinWindow(shed, { body, timeMs: request.timeMs, agentId: c.agentId, window, tokensOf });
    const shedPrepared = shedOut.prepared;
    if (shedPrepared.reason !== undefined && shedPrepared.reason !== 'no_epoch') count(`shed:${shedPrepared.reason}`);
    for (const s of shedPrepared.skipped ?? []) count(`shed-span:${s.reason}`);
    if (shedOut.kind === 'answered' && shedOut.rescued) tallies.shed.rescued++;
    const mainIndex = tallies.shed.fullness.length;
    const shedPriced = settle(
      'shed',
      shedPrepared.body,
      shedPrepared.latched !== undefined,
      shedOut.kind === 'refused' ? { refused: true, why: shedOut.why } : { refused: false },
    );
    if (shedPriced !== undefined) {
      // Against the recorded body as the model prices it, answered or not at this window.
      shedAccount.afterSend({
        conversation: c.id,
        requests: c.requests.length,
        n,
        request,
        body,
        prepared: shedPrepared,
        priced: shedPriced,
        recorded: recordedPriced ?? asRecorded,
        ttl,
        tokensPerByte: r,
        ...(main ? { mainIndex } : {}),
      });
    }
    if (shedOut.kind === 'answered')
      shed.observe(shedPrepared, { contextTokens: Math.round(shedOut.tokens), requestBytes: shedPrepared.body.length + Math.round(prefix / r) });

    // Per-request rewriting: every eligible block, every request.
    const every = rewriteEveryRequest(body, options.policy, `${options.stateDir}/elided`, sha256Hex);
    if (every.reason !== undefined && every.reason !== 'no_epoch') count(`perRequest:${every.reason}`);
    const everyKey = [...every.stubbed.keys()].join(',');
    const sets = lastSets.get(c.id) ?? { perRequest: '', clearToolUses: '' };
    settle('perRequest', every.body, everyKey !== sets.perRequest, byWindow(every.body));
    for (const [id, bytes] of every.stubbed) tallies.perRequest.addShed(`${c.id}/${id}`, bytes);

    // Server-side clearing: decided on the full prompt the client sends.
    const clearing = clearToolUses(request.messages, originalTokens);
    const clearedBody = clearing.cleared.size === 0 ? body : new BodyBuilder().build(sentModel, clearing.messages);
    const clearKey = [...clearing.cleared.keys()].join(',');
    settle('clearToolUses', clearedBody, clearKey !== sets.clearToolUses, byWindow(clearedBody));
    for (const [id, bytes] of clearing.cleared) tallies.clearToolUses.addShed(`${c.id}/${id}`, bytes);
    lastSets.set(c.id, { perRequest: everyKey, clearToolUses: clearKey });
    // The recorded main thread compacted after this request: where each strategy stood then.
    if (main && c.endedInCompaction && n === c.requests.length - 1) for (const s of STRATEGIES) tallies[s].markCompaction();
    firstLast.set(c.id, { finalBytes: sentBytes });
  }

  for (const c of conversations) {
    for (const epoch of entries.get(c.id)?.record?.epochs ?? []) for (const b of epoch.blocks) tallies.rescue.addShed(`${c.id}/${b.toolUseId}`, b.bytes);
    const span = firstLast.get(c.id);
    if (span === undefined) continue;
    for (const s of STRATEGIES) tallies[s].finalBytesSaved += (span.finalBytes.recorded ?? 0) - (span.finalBytes[s] ?? 0);
  }
  const runway = finishRunways(runways, runwayOf, point, window);
  const recordedSummary = tallies.recorded.summary(runway.recorded);
  return {
    file,
    requests: conversations.reduce((a, c) => a + c.requests.length, 0),
    conversations: conversations.length,
    window,
    ...(tokenThreshold === undefined ? {} : { tokenThreshold }),
    calibration: {
      cacheReadError: relError(modelRead, recordedRead),
      cacheWriteError: relError(modelWrite, recordedWrite),
      contextError: relError(modelContext, recordedContext),
      meanAbsRequestError: measured > 0 ? round4(absError / measured) : 0,
      tokensPerByte: round4(model.tokensPerByte),
      unexplainedMisses: { requests: misses, extraWriteTokens: Math.round(missedWrite) },
      misses: turns.tally(),
      prefixTokens: Object.fromEntries([...model.prefixTokens].map(([k, v]) => [k, Math.round(v)])),
      recorded: {
        cacheReadTokens: recordedRead,
        cacheWriteTokens: recordedWrite,
        uncachedTokens: recordedUncached,
        costUsd: Math.round(recordedCost * 10_000) / 10_000,
        peakFullness: round4(recordedPeak),
      },
    },
    strategies: {
      recorded: recordedSummary,
      rescue: tallies.rescue.summary(runway.rescue),
      shed: tallies.shed.summary(runway.shed),
      perRequest: tallies.perRequest.summary(runway.perRequest),
      clearToolUses: tallies.clearToolUses.summary(runway.clearToolUses),
    },
    shedEpochs: shedAccount.epochs,
    shedHeld: shedAccount.held(),
    passthrough,
    stateFailures: [...rescue.failures, ...shed.failures.map((f) => `shed: ${f}`)],
    unpricedModels: [...unpriced],
    autoCompactAt: round4(point.tokens / window),
    compactionPoint: point,
    costBasis: { basis: COST_BASIS, replayedRequests: steps.length, afterCompactionRequests: allSteps.length - steps.length },
    refaults: refaults.figure(conversations.reduce((n, c) => n + (entries.get(c.id)?.record?.epochs ?? []).reduce((k, e) => k + e.blocks.length, 0), 0)),
    shedRefaults: shedAccount.refaults(),
  };
}

/** How the API took a request: answered, or refused and why. */
type Settled = { readonly refused: false } | { readonly refused: true; readonly why: RefusedWhy };

/** Whether a request is priced under `COST_BASIS`: sent before the first compaction, not the compaction's own call. */
function isPriced(step: Step, point: CompactionPoint): boolean {
  const c = step.conversation;
  if (c.afterCompaction === true || (c.kind === 'subagent' && (c.agentId?.startsWith(COMPACTION_AGENT_PREFIX) ?? false))) return false;
  const cut = point.recorded?.timeMs;
  if (cut === undefined || Number.isNaN(cut) || Number.isNaN(step.request.sentMs)) return true;
  // The conversation that compacted is priced whole: its last request is what reached the point.
  return c.id === point.recorded?.conversation || step.request.sentMs < cut;
}

/** Each strategy's runway, the recorded conversation's growth carrying those that never reached the point. */
function finishRunways(runways: Record<StrategyName, RunwayCounter>, c: RebuiltConversation | undefined, point: CompactionPoint, window: number) {
  const counts = (c?.requests ?? []).map((r) => r.usage.input + r.usage.cacheRead + r.usage.cacheWrite + r.usage.output);
  const growth = counts.length > 1 ? ((counts.at(-1) ?? 0) - (counts[0] ?? 0)) / (counts.length - 1) : 0;
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

function relError(model: number, recorded: number): number {
  return recorded > 0 ? round4((model - recorded) / recorded) : 0;
}

function round4(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}
