/**
 * The tool-result kind's mode row (kind-mode.ts): `--mode rescue`, the default mode, and its
 * defaults (docs/rescue.md "Flags and environment").
 */
import { DEFAULT_MIN_ELIDE_BYTES, DEFAULT_MIN_GAIN_FRACTION, DEFAULT_SHED_POLICY, type DeepCut } from '../../../core/index.js';
import type { KindMode } from '../../kind-mode.js';

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
 * half its epochs and cache writes of 1.19x rather than 1.41x.
 */
export const RESCUE_MODE: KindMode = {
  word: 'rescue',
  freezes: 'old tool results',
  defaults: {
    threshold: 0.55,
    minGainFraction: DEFAULT_MIN_GAIN_FRACTION,
    keepRecent: 1,
    minBytes: DEFAULT_MIN_ELIDE_BYTES,
    deep: DEFAULT_DEEP_CUT,
    shedPolicy: DEFAULT_SHED_POLICY,
    gate: false,
  },
};
