/**
 * The defaults of the levers a mode may set apart from another, one row per `--mode` word: the
 * one table, so that a mode's threshold or recent budget is chosen in one line (docs/rescue.md
 * "Flags and environment", docs/economics.md "Choosing the defaults"). A lever a command line
 * gives overrides the row (engine-settings.ts `engineSettingsOf`); `replay` reads a row for each
 * mode it replays.
 */
import {
  DEFAULT_KEEP_RECENT,
  DEFAULT_MIN_ELIDE_BYTES,
  DEFAULT_MIN_GAIN_FRACTION,
  DEFAULT_SHED_POLICY,
  type DeepCut,
  type EpochMode,
  type ShedPolicy,
} from '../core/index.js';

/** What a mode sets by default. */
export interface ModeDefaults {
  /** `--rescue-pct` as a fraction: the fullness at which an epoch may latch. */
  readonly threshold: number;
  /** Each epoch must free at least this fraction of the window (`replay --min-gain-pct`). */
  readonly minGainFraction: number;
  /** `--keep-recent`: a rescue epoch never takes the N newest tool results. */
  readonly keepRecent: number;
  /** `--min-bytes`: a rescue epoch takes only tool results over N bytes. */
  readonly minBytes: number;
  /** `--deep`: the deeper cut a rescue epoch takes besides tool results (docs/rescue.md "The deeper cut"); undefined: tool results only. */
  readonly deep: DeepCut | undefined;
  /** The recent window a shed epoch leaves alone (`replay --recent-pct`, `--recent-max`). */
  readonly shedPolicy: ShedPolicy;
  /** `--gate`: rescue epochs latch only when the burst gate says they pay back (shed epochs always ask it). */
  readonly gate: boolean;
}

/**
 * The deeper cut a rescue epoch takes by default (docs/rescue.md "The deeper cut"): old tool
 * inputs' strings and old assistant texts over 256 bytes, chosen on whole sessions
 * (docs/economics.md "Choosing the defaults").
 */
export const DEFAULT_DEEP_CUT: DeepCut | undefined = { parts: ['tool_input', 'assistant_text'], inputMinBytes: 256, textMinBytes: 256 };

/**
 * Each mode's row, chosen with `replay --whole-figures` on the two shared sessions at 200k and 1M
 * (docs/economics.md "Choosing the defaults", where the grid is). Rescue latches at 55% with the
 * deeper cut and one recent tool result kept: within 1% of the cheapest cell (40%) at 200k with
 * half its epochs and cache writes of 1.19x rather than 1.41x. Shed latches at 40%: 12% under 70%
 * at 200k with cache writes at most 1.04x, and the same at 1M (where `--rescue-tokens` fires first).
 */
export const MODE_DEFAULTS: { readonly [M in EpochMode]: ModeDefaults } = {
  rescue: {
    threshold: 0.55,
    minGainFraction: DEFAULT_MIN_GAIN_FRACTION,
    keepRecent: 1,
    minBytes: DEFAULT_MIN_ELIDE_BYTES,
    deep: DEFAULT_DEEP_CUT,
    shedPolicy: DEFAULT_SHED_POLICY,
    gate: false,
  },
  shed: {
    threshold: 0.4,
    minGainFraction: DEFAULT_MIN_GAIN_FRACTION,
    keepRecent: DEFAULT_KEEP_RECENT,
    minBytes: DEFAULT_MIN_ELIDE_BYTES,
    deep: undefined,
    shedPolicy: DEFAULT_SHED_POLICY,
    gate: false,
  },
};

/** The mode a command runs in when none is named. */
export const DEFAULT_MODE: EpochMode = 'rescue';

/** The row of `mode`. */
export function modeDefaultsOf(mode: EpochMode): ModeDefaults {
  return MODE_DEFAULTS[mode];
}

/**
 * A lever's default as help text: the value when every mode has the same, else each mode's
 * (`rescue 40, shed 50`), so `--help` follows the table.
 */
export function defaultByMode(text: (row: ModeDefaults) => string): string {
  const byMode = Object.entries(MODE_DEFAULTS).map(([mode, row]) => [mode, text(row)] as const);
  const values = new Set(byMode.map(([, value]) => value));
  return values.size === 1 ? byMode[0]![1] : byMode.map(([mode, value]) => `${mode} ${value}`).join(', ');
}
