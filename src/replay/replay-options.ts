/** How to replay a session (replay-session.ts), as the `replay` command's options give it. */
import type { ElisionPolicy, LatchAt } from '../core/index.js';
import type { EngineSettings } from '../rescue/index.js';

/**
 * The engine's levers a replay may vary (`replay --gate`, `--min-gain-pct`, `--recent-pct`,
 * `--recent-max`, `--cold-rescue-pct`); each absent one is the engine's default.
 */
export type ReplayTuning = Pick<EngineSettings, 'gate' | 'minGainFraction' | 'shedPolicy' | 'coldThreshold'>;

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
  /** The engine's levers, when a replay varies them. */
  readonly tuning?: ReplayTuning;
  /** `--price-as MODEL`: bill every request at this model's prices instead of the recorded model's (bodies unchanged). */
  readonly priceAs?: string;
  /**
   * `CLAUDE_CODE_AUTO_COMPACT_WINDOW` in tokens (core/client-compaction.ts): the client compacts
   * below it when it is under the window, so the runway ends there (compaction-point.ts).
   */
  readonly autoCompactWindow?: number;
}

/** The model a `prefixCheck` replay's bodies name (core/thinking/prefix-check-models.ts). */
export const PREFIX_CHECK_STAND_IN = 'claude-opus-5-5';
