/**
 * What the epoch engine is configured with: one value, grouped by what each part is for, so a
 * reader of one part never checks fields another part has. Built by `engineSettingsOf` from what a
 * command line (or a test) gives, each lever it leaves out taken from its mode's row
 * (mode-defaults.ts). The proxy, `demo` and `replay` all take it.
 */
import { type ColdThresholds, type DeepCut, DEFAULT_LATCH_AT, type ElisionPolicy, type LatchAt, type ShedPolicy } from '../core/index.js';
import type { ModeWord } from './kind-mode.js';
import { DEFAULT_MODE, modeDefaultsOf } from './mode-defaults.js';

/** The engine's settings (the transport's live in proxy/transport-settings.ts). */
export interface EngineSettings {
  /**
   * `--mode`: what a new conversation's epochs freeze, a word of a kind's mode row (kind-mode.ts):
   * tool results (`rescue`), spans of whole messages (`shed`, docs/shed.md), or a registered kind's.
   * A conversation with epochs keeps its first epoch's kind.
   */
  readonly mode: ModeWord;
  /** When an epoch may latch, of any kind. */
  readonly latch: LatchSettings;
  /** What a rescue (tool-result) epoch takes, whether it asks the burst gate, and who labels its blocks. */
  readonly rescue: RescueSettings;
  /** What a shed epoch leaves in view. */
  readonly shed: ShedSettings;
  /** How a request's window is read. */
  readonly window: WindowSettings;
  /** What a stub names as the way back. */
  readonly stubs: StubSettings;
}

/** When an epoch may latch (docs/rescue.md "When an epoch latches"). */
export interface LatchSettings {
  /**
   * `--rescue-pct` as a fraction, `--rescue-tokens` (absent: the default for windows over 200,000;
   * 0: none) and `--cold-rescue-pct` (absent: a cold request has the usual threshold): core
   * latch-threshold.ts and cache-cold.ts.
   */
  readonly thresholds: ColdThresholds;
  /** Each epoch must free at least this fraction of the window. */
  readonly minGainFraction: number;
  /** `--horizon N`: the turns a burst must pay back within; absent: as many as the conversation has had. */
  readonly horizon?: number;
  /**
   * On a model that runs the prefix check: latch only while the newest message is a person's
   * prompt (`prompt`, below the gate's ceiling) or wherever the threshold says (`anywhere`).
   */
  readonly latchAt: LatchAt;
}

/** A rescue epoch's own settings. */
export interface RescueSettings {
  /** Which tool results an epoch elides. */
  readonly policy: ElisionPolicy;
  /** `--gate`: rescue epochs latch only when the burst gate says they pay back (shed epochs always do). */
  readonly gate: boolean;
  /**
   * How a new epoch labels its blocks (docs/labels.md): `local` rules, the default, or the
   * optional `model` classifier. Either latches policy version 3.
   */
  readonly labels: LabelMode;
  /** `--labels model`: how long the classifier may take before the local rules decide instead. */
  readonly classifierTimeoutMs: number;
}

/** A shed epoch's own settings. */
export interface ShedSettings {
  /** The recent window a shed epoch leaves alone. */
  readonly policy: ShedPolicy;
}

/** How a request's window is read (request-meta.ts). */
export interface WindowSettings {
  /** `--window`, when given: it wins; absent: the request's own (the model's, or the beta header's). */
  readonly given?: number;
  /**
   * `CLAUDE_CODE_AUTO_COMPACT_WINDOW` in tokens (core/client-compaction.ts), as the proxy's
   * environment had it: a Messages conversation's window is the model's or this, the smaller.
   */
  readonly autoCompact?: number;
}

/** What a stub names as the way back (stub-dirs.ts). */
export interface StubSettings {
  /**
   * The proxy is a team's gateway (an owner rule is on, docs/team.md): stubs name ctxshed's restore
   * tool and the handle, not a path on the gateway's disk. Off: the single-user stubs, unchanged.
   */
  readonly gateway: boolean;
  /** ctxshed's MCP `restore` tool is offered to the client, so a stub may name it as the way back. */
  readonly restoreTool: boolean;
}

/** The classifier's time limit: a latching request never waits longer for it than this. */
export const DEFAULT_CLASSIFIER_TIMEOUT_MS = 10_000;

/** `--labels`: who decides keep, pointer or drop. */
export type LabelMode = 'local' | 'model';

/** `--labels`' default. */
export const DEFAULT_LABELS: LabelMode = 'local';

/**
 * What a command line (or a test) gives: each lever it names, already checked (cli/settings-options.ts
 * checks the flags). Everything left out is the mode's default (mode-defaults.ts) or the engine's.
 */
export interface SettingsGiven {
  /** A word the registry knows (the CLI checked it: mode-defaults.ts `lookUpMode`); `engineSettingsOf` throws for another. */
  readonly mode?: ModeWord;
  /** `--rescue-pct` as a fraction. */
  readonly threshold?: number;
  readonly rescueTokens?: number;
  /** `--cold-rescue-pct` as a fraction. */
  readonly coldThreshold?: number;
  readonly minGainFraction?: number;
  readonly keepRecent?: number;
  readonly minBytes?: number;
  /** `--deep` and its floors: the deeper cut a rescue epoch takes (`none`: tool results only); absent: the mode's. */
  readonly deep?: DeepCut | 'none';
  /** The shed recent budget's fraction of the window and its ceiling, over the mode's (`replay --recent-pct`, `--recent-max`). */
  readonly recentFraction?: number;
  readonly recentCeilingTokens?: number;
  /** The whole shed policy, for a test that fixes the budget (core `fixedRecentBudget`). */
  readonly shedPolicy?: ShedPolicy;
  readonly gate?: boolean;
  readonly horizon?: number;
  readonly latchAt?: LatchAt;
  readonly labels?: LabelMode;
  readonly classifierTimeoutMs?: number;
  /** `--window`. */
  readonly window?: number;
  readonly autoCompactWindow?: number;
  readonly gatewayStubs?: boolean;
  readonly restoreTool?: boolean;
}

/** The engine's settings for what was given, in its mode (absent: the default, rescue), each lever left out at its default. */
export function engineSettingsOf(given: SettingsGiven = {}): EngineSettings {
  const mode = given.mode ?? DEFAULT_MODE;
  const row = modeDefaultsOf(mode);
  const shedPolicy = given.shedPolicy ?? row.shedPolicy;
  return {
    mode,
    latch: {
      thresholds: {
        threshold: given.threshold ?? row.threshold,
        ...(given.rescueTokens === undefined ? {} : { rescueTokens: given.rescueTokens }),
        ...(given.coldThreshold === undefined ? {} : { coldThreshold: given.coldThreshold }),
      },
      minGainFraction: given.minGainFraction ?? row.minGainFraction,
      ...(given.horizon === undefined ? {} : { horizon: given.horizon }),
      latchAt: given.latchAt ?? DEFAULT_LATCH_AT,
    },
    rescue: {
      policy: { keepRecent: given.keepRecent ?? row.keepRecent, minBytes: given.minBytes ?? row.minBytes, ...deepOf(given.deep ?? row.deep) },
      gate: given.gate ?? row.gate,
      labels: given.labels ?? DEFAULT_LABELS,
      classifierTimeoutMs: given.classifierTimeoutMs ?? DEFAULT_CLASSIFIER_TIMEOUT_MS,
    },
    shed: {
      policy: {
        ...shedPolicy,
        ...(given.recentFraction === undefined ? {} : { recentFraction: given.recentFraction }),
        ...(given.recentCeilingTokens === undefined ? {} : { recentCeilingTokens: given.recentCeilingTokens }),
      },
    },
    window: {
      ...(given.window === undefined ? {} : { given: given.window }),
      ...(given.autoCompactWindow === undefined ? {} : { autoCompact: given.autoCompactWindow }),
    },
    stubs: { gateway: given.gatewayStubs ?? false, restoreTool: given.restoreTool ?? false },
  };
}

/** The policy's `deep`, when there is a cut to take. */
function deepOf(deep: DeepCut | 'none' | undefined): { deep?: DeepCut } {
  return deep === undefined || deep === 'none' ? {} : { deep };
}

/** The engine's defaults: rescue mode, every lever at its default. */
export const DEFAULT_ENGINE_SETTINGS: EngineSettings = engineSettingsOf();
