/** What the epoch engine is configured with, and its defaults: the one place they live. */
import {
  DEFAULT_KEEP_RECENT,
  DEFAULT_MIN_ELIDE_BYTES,
  DEFAULT_MIN_GAIN_FRACTION,
  DEFAULT_SHED_POLICY,
  type DeepCut,
  type ElisionPolicy,
  type EpochMode,
  type LatchAt,
  type ShedPolicy,
} from '../core/index.js';

/** The engine's settings (the transport's live in proxy/transport-settings.ts). */
export interface EngineSettings {
  /** `--rescue-pct` as a fraction, e.g. 0.7: the fullness at which an epoch may latch. */
  readonly threshold: number;
  /**
   * `--rescue-tokens`: a prompt of this many tokens may latch too, whichever comes first (core
   * latch-threshold.ts). Absent: the default for windows over 200,000; 0: none.
   */
  readonly rescueTokens?: number;
  /** Which tool results an epoch elides. */
  readonly policy: ElisionPolicy;
  /** `--window`, when given; else the request's own (see context-window.ts). */
  readonly window?: number;
  /** Each epoch must free at least this fraction of the window. */
  readonly minGainFraction?: number;
  /**
   * `--mode`: what a new conversation's epochs freeze, tool results (`rescue`) or spans of whole
   * messages (`shed`, docs/shed.md). A conversation with epochs keeps its first epoch's mode.
   */
  readonly mode?: EpochMode;
  /** The recent window a shed epoch leaves alone. */
  readonly shedPolicy?: ShedPolicy;
  /** `--gate`: rescue epochs latch only when the burst gate says they pay back (shed epochs always do). */
  readonly gate?: boolean;
  /**
   * `--cold-rescue-pct` as a fraction: the threshold for a request the cache TTL says comes back
   * cold (core/cache-cold.ts), where an epoch re-writes nothing the request would not re-write
   * anyway. Absent: the same threshold as any request.
   */
  readonly coldThreshold?: number;
  /** `--horizon N`: the turns a burst must pay back within (default: as many as the conversation has had). */
  readonly horizon?: number;
  /**
   * How a new epoch labels its blocks (docs/labels.md): `local` rules, the default, or the
   * optional `model` classifier. Either latches policy version 3.
   */
  readonly labels?: LabelMode;
  /**
   * The proxy is a team's gateway (an owner rule is on, docs/team.md): stubs name ctxshed's restore
   * tool and the handle, not a path on the gateway's disk. Absent: the single-user stubs, unchanged.
   */
  readonly gatewayStubs?: boolean;
  /** ctxshed's MCP `restore` tool is offered to the client, so a stub may name it as the way back. */
  readonly restoreTool?: boolean;
  /** `--labels model`: how long the classifier may take before the local rules decide instead. */
  readonly classifierTimeoutMs?: number;
  /**
   * On a model that runs the prefix check: latch only while the newest message is a person's
   * prompt (`prompt`, below the gate's ceiling) or wherever the threshold says (`anywhere`).
   * Absent: `DEFAULT_LATCH_AT` (core/thinking/turn-place.ts), `anywhere`.
   */
  readonly latchAt?: LatchAt;
  /**
   * `CLAUDE_CODE_AUTO_COMPACT_WINDOW` in tokens (core/client-compaction.ts), as the proxy's
   * environment had it: a Messages conversation's window is the model's or this, the smaller.
   * `--window` still wins.
   */
  readonly autoCompactWindow?: number;
}

/**
 * The deeper cut a rescue epoch takes by default (docs/rescue.md "The deeper cut", chosen on whole
 * sessions: docs/economics.md); undefined: tool results only.
 */
export const DEFAULT_DEEP_CUT: DeepCut | undefined = undefined;

/** The classifier's time limit: a latching request never waits longer for it than this. */
export const DEFAULT_CLASSIFIER_TIMEOUT_MS = 10_000;

/** `--labels`: who decides keep, pointer or drop. */
export type LabelMode = 'local' | 'model';

/** Latch at 70% of the window, eliding tool results older than the 6 newest and over 1 KiB; no gate. */
export const DEFAULT_ENGINE_SETTINGS: EngineSettings = {
  threshold: 0.7,
  policy: { keepRecent: DEFAULT_KEEP_RECENT, minBytes: DEFAULT_MIN_ELIDE_BYTES, ...(DEFAULT_DEEP_CUT === undefined ? {} : { deep: DEFAULT_DEEP_CUT }) },
  minGainFraction: DEFAULT_MIN_GAIN_FRACTION,
  mode: 'rescue',
  shedPolicy: DEFAULT_SHED_POLICY,
  gate: false,
  labels: 'local',
  classifierTimeoutMs: DEFAULT_CLASSIFIER_TIMEOUT_MS,
};
