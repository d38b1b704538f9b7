/**
 * The span kind's mode row (kind-mode.ts): `--mode shed` and its defaults (docs/rescue.md "Flags
 * and environment", docs/shed.md).
 */
import { DEFAULT_KEEP_RECENT, DEFAULT_MIN_ELIDE_BYTES, DEFAULT_MIN_GAIN_FRACTION, DEFAULT_SHED_POLICY } from '../../../core/index.js';
import type { KindMode } from '../../kind-mode.js';

/**
 * Each mode's row, chosen with `replay --whole-figures` on the two shared sessions at 200k and 1M
 * (docs/economics.md "Choosing the defaults", where the grid is). Shed latches at 40%: 12% under 70%
 * at 200k with cache writes at most 1.04x, and the same at 1M (where `--rescue-tokens` fires first).
 */
export const SHED_MODE: KindMode = {
  word: 'shed',
  freezes: 'a span of whole old messages',
  defaults: {
    threshold: 0.4,
    minGainFraction: DEFAULT_MIN_GAIN_FRACTION,
    keepRecent: DEFAULT_KEEP_RECENT,
    minBytes: DEFAULT_MIN_ELIDE_BYTES,
    deep: undefined,
    shedPolicy: DEFAULT_SHED_POLICY,
    gate: false,
  },
};
