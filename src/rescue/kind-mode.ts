/**
 * A mode is a row of the kind registry (latch-kinds.ts): the `--mode` word that opens new
 * conversations in a kind, and the defaults of the levers a mode may set apart from another
 * (docs/rescue.md "Flags and environment"). Each kind that has a mode carries its row in its
 * engine record (latch-kind.ts `LatchKind.mode`); the built-in kinds' rows are in their folders
 * (kinds/tool-results/mode.ts, kinds/spans/mode.ts), and mode-defaults.ts reads the rows.
 */
import type { DeepCut, ShedPolicy } from '../core/index.js';

/** A `--mode` word: a string checked against the registry's words once, at the edge (mode-defaults.ts `lookUpMode`). */
export type ModeWord = string;

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

/** A kind's mode row: its `--mode` word, what `--help` says its epochs freeze, and its defaults. */
export interface KindMode {
  /** The `--mode` word (lowercase letters, digits, `_` and `-`, a letter first). */
  readonly word: ModeWord;
  /** What its epochs freeze, as `--mode`'s help says it (`old tool results`); absent: the word alone. */
  readonly freezes?: string;
  /** The levers' defaults in this mode; absent: the default mode's row (mode-defaults.ts `DEFAULT_MODE`). */
  readonly defaults?: ModeDefaults;
}
