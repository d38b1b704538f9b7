/** How to replay a session (replay-session.ts), as the `replay` command's options give it. */
import type { SettingsGiven } from '../rescue/index.js';

/** How to replay. */
export interface ReplayOptions {
  /**
   * The settings the command line gave, the value the proxy's engine is built from
   * (rescue/engine-settings.ts `engineSettingsOf`): each engine the replay runs (rescue, shed)
   * takes them in its own mode, every lever left out at that mode's default. `window` absent: the
   * client's 200,000; `autoCompactWindow` also moves the session's compaction point (compaction-point.ts).
   */
  readonly settings: SettingsGiven;
  /** An empty directory for the rescue's state (the caller creates and removes it). */
  readonly stateDir: string;
  /** Another for shed mode's: two state directories, each one `ctxshed verify` passes. */
  readonly shedStateDir: string;
  /**
   * Replay as if the session's model ran the prefix check on thinking blocks: every body names
   * `PREFIX_CHECK_STAND_IN` instead of the recorded model (prices stay the recorded model's).
   */
  readonly prefixCheck?: boolean;
  /** `--price-as MODEL`: bill every request at this model's prices instead of the recorded model's (bodies unchanged). */
  readonly priceAs?: string;
}

/** The model a `prefixCheck` replay's bodies name (core/thinking/prefix-check-models.ts). */
export const PREFIX_CHECK_STAND_IN = 'claude-opus-5-5';
