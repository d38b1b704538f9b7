/**
 * The state of one session's replay (replay-session.ts): the engines, the fitted model, the
 * per-strategy caches, tallies and runways, and the counts that every step adds to.
 */
import { tokenThresholdFor } from '../core/index.js';
import { contextWindowFor, DEFAULT_CONTEXT_WINDOW, engineSettingsOf, type EngineSettings } from '../rescue/index.js';
import { CalibrationTally } from './calibration-tally.js';
import { findCompactionPoint, runwayConversation, type CompactionPoint } from './compaction-point.js';
import { fitSessionModel } from './fit-session-model.js';
import type { TokenModel } from './fit-tokens.js';
import type { PromptCache } from './prompt-cache.js';
import type { RebuiltConversation } from './rebuild-conversations.js';
import { BodyBuilder } from './request-body.js';
import type { ReplayOptions } from './replay-options.js';
import { ReplayRefaults } from './replay-refaults.js';
import { RescueReplay } from './rescue-replay.js';
import { RunwayCounter } from './runway.js';
import type { ConversationRewriters } from './conversation-rewriters.js';
import { PrefixThinking } from './prefix-thinking.js';
import { ShedAccount } from './shed-account.js';
import { STRATEGIES, StrategyTally, type StrategyName } from './strategy-tally.js';
import { conversationTtls, type CacheTtl } from './ttl-rules.js';
import { WorkingSetTally } from './working-set-tally.js';

/** The conversation the rescue engine last reported for a conversation (its record and frozen blocks). */
export type ConversationEntry = NonNullable<Awaited<ReturnType<RescueReplay['send']>>['conversation']>;

/** Each strategy's prompt cache of one conversation, and the calibration's. */
export type ConversationCaches = Record<StrategyName | 'calibration', PromptCache>;

/**
 * What a replay prices: `firstCompaction`, the session up to the main thread's first compaction
 * (the recorded strategy also priced past it, for the recorded-with-compaction baseline);
 * `wholeSession`, a stitched history (stitch-transcript.ts) priced whole, runways never extrapolated.
 */
export type ReplayBasis = 'firstCompaction' | 'wholeSession';

/** The recorded session whole, as the user paid for it: the model's price of every request, the compaction calls' from their records. */
export interface RecordedWhole {
  costUsd: number;
  cacheWriteTokens: number;
  compactionCalls: { requests: number; costUsd: number };
  /** Models of the requests past the strategies' span (the compaction calls' included) the table does not know. */
  readonly unpriced: Set<string>;
}

/** Everything a session's replay keeps between its steps. */
export interface SessionRun {
  readonly basis: ReplayBasis;
  readonly recordedWhole: RecordedWhole;
  readonly options: ReplayOptions;
  readonly window: number;
  /** The rescue engine's settings at the replay's window: its policy is the per-request strategy's too. */
  readonly rescueSettings: EngineSettings;
  /** The token threshold in force; absent: none. */
  readonly tokenThreshold: number | undefined;
  readonly builders: ReadonlyMap<string, BodyBuilder>;
  readonly model: TokenModel;
  readonly isMain: (c: RebuiltConversation) => boolean;
  readonly point: CompactionPoint;
  readonly runwayOf: RebuiltConversation | undefined;
  readonly runways: Record<StrategyName, RunwayCounter>;
  readonly tallies: Record<StrategyName, StrategyTally>;
  readonly caches: Map<string, ConversationCaches>;
  /** The stubbed sets of the last request of each conversation, to see when they change. */
  readonly lastSets: Map<string, Record<'perRequest' | 'clearToolUses', string>>;
  /** Each conversation's last request's bytes as each strategy sent them. */
  readonly finalBytes: Map<string, Partial<Record<StrategyName, number>>>;
  readonly passthrough: Record<string, number>;
  readonly unpriced: Set<string>;
  readonly rescue: RescueReplay;
  readonly shed: RescueReplay;
  readonly shedAccount: ShedAccount;
  readonly entries: Map<string, ConversationEntry>;
  readonly refaults: ReplayRefaults;
  /** The same for the two rewriting strategies: the blocks each stubbed or cleared, read again later. */
  readonly rewriteRefaults: Record<'perRequest' | 'clearToolUses', ReplayRefaults>;
  readonly calibration: CalibrationTally;
  readonly ttls: ReadonlyMap<string, readonly CacheTtl[]>;
  /** Each engine strategy's working set: its holds and its size (working-set-tally.ts). */
  readonly workingSets: Record<'rescue' | 'shed', WorkingSetTally>;
  /** `--prefix-check`: the rewriting strategies' thinking blocks against the check, per conversation (prefix-thinking.ts). */
  readonly prefixThinking: Map<string, Record<'perRequest' | 'clearToolUses', PrefixThinking>>;
  /** What per-request rewriting and clearing keep of each conversation (replay-rewrite-steps.ts). */
  readonly rewriters: Map<string, ConversationRewriters>;
}

/** A conversation's prefix-check trackers for the rewriting strategies, opened on its first request. */
export function prefixThinkingOf(run: SessionRun, conversation: string): Record<'perRequest' | 'clearToolUses', PrefixThinking> {
  const known = run.prefixThinking.get(conversation);
  if (known !== undefined) return known;
  const fresh = { perRequest: new PrefixThinking(), clearToolUses: new PrefixThinking() };
  run.prefixThinking.set(conversation, fresh);
  return fresh;
}

/**
 * Opens the replay of a session: fits its model (or takes the one `made` fitted on the same
 * requests, with its builders), finds its compaction point, opens both engines.
 */
export async function openSessionRun(
  conversations: readonly RebuiltConversation[],
  options: ReplayOptions,
  whole?: { readonly point: CompactionPoint },
  made?: { readonly builders: ReadonlyMap<string, BodyBuilder>; readonly model?: TokenModel },
): Promise<SessionRun> {
  const window = contextWindowFor(options.settings.window, undefined);
  // The engine measures against the replay's window, never the recorded model's: the sessions
  // were compacted by a client that counted 200,000 unless told otherwise (--window).
  const settings = {
    rescue: engineSettingsOf({ ...options.settings, mode: 'rescue', window }),
    shed: engineSettingsOf({ ...options.settings, mode: 'shed', window }),
  };
  const builders = new Map(conversations.map((c) => [c.id, made?.builders.get(c.id) ?? new BodyBuilder()]));
  const hasMain = conversations.some((c) => c.kind === 'main');
  // A stitched session has no boundary left: its point is the recorded session's, with no cut.
  const point = whole?.point ?? compactionPointFor(conversations, options);
  const tallies = Object.fromEntries(STRATEGIES.map((s) => [s, new StrategyTally()])) as Record<StrategyName, StrategyTally>;
  tallies.shed.perEpoch = true;
  const { rescue, shed } = await openEngines(options, settings);
  return {
    basis: whole === undefined ? 'firstCompaction' : 'wholeSession',
    recordedWhole: { costUsd: 0, cacheWriteTokens: 0, compactionCalls: { requests: 0, costUsd: 0 }, unpriced: new Set() },
    options,
    window,
    rescueSettings: settings.rescue,
    tokenThreshold: tokenThresholdFor(settings.rescue.latch.thresholds, window),
    builders,
    model: made?.model ?? fitSessionModel(conversations, builders),
    isMain: (c) => !hasMain || c.kind === 'main',
    point,
    runwayOf: runwayConversation(conversations),
    runways: Object.fromEntries(STRATEGIES.map((s) => [s, new RunwayCounter(point.tokens)])) as Record<StrategyName, RunwayCounter>,
    tallies,
    caches: new Map(),
    lastSets: new Map(),
    finalBytes: new Map(),
    passthrough: {},
    unpriced: new Set(),
    rescue,
    shed,
    shedAccount: new ShedAccount(),
    entries: new Map(),
    refaults: new ReplayRefaults(),
    rewriteRefaults: { perRequest: new ReplayRefaults(), clearToolUses: new ReplayRefaults() },
    calibration: new CalibrationTally(),
    ttls: new Map(conversations.map((c) => [c.id, conversationTtls(c.requests.map((r) => r.usage))])),
    workingSets: { rescue: new WorkingSetTally(), shed: new WorkingSetTally() },
    prefixThinking: new Map(),
    rewriters: new Map(),
  };
}

/**
 * Where the client compacts a session replayed with `options` (compaction-point.ts), from its
 * conversations as recorded: the point a whole-session replay of the same session runs at.
 */
export function compactionPointFor(conversations: readonly RebuiltConversation[], options: Pick<ReplayOptions, 'settings'>): CompactionPoint {
  // Transcripts carry no beta header: the session ran at the default window (1M sessions are rare).
  const window = contextWindowFor(options.settings.window, undefined);
  return findCompactionPoint(conversations, window, DEFAULT_CONTEXT_WINDOW, options.settings.autoCompactWindow);
}

/**
 * The rescue engine and shed mode's, each on its own state directory, with the replay's settings
 * in its mode. Shed mode is the proxy's own too: the same engine in `--mode shed`, its gate and
 * frozen spans; with `--gate`, rescue's epochs weigh their re-write over the same horizon as shed's.
 */
async function openEngines(
  options: ReplayOptions,
  settings: { readonly rescue: EngineSettings; readonly shed: EngineSettings },
): Promise<{ rescue: RescueReplay; shed: RescueReplay }> {
  const rescue = await RescueReplay.open(options.stateDir, settings.rescue);
  const shed = await RescueReplay.open(options.shedStateDir, settings.shed);
  return { rescue, shed };
}

/** Ends the replay's use of its engines (their watches on the records). */
export function closeSessionRun(run: SessionRun): void {
  run.rescue.close();
  run.shed.close();
}

/** Counts one pass-through, hold or skip reason of the replay. */
export function countPassthrough(run: SessionRun, reason: string): void {
  run.passthrough[reason] = (run.passthrough[reason] ?? 0) + 1;
}
