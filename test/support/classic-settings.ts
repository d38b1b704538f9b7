/**
 * The levers the engine's tests were written against, before issue 40 chose each mode's defaults
 * on whole sessions (rescue/mode-defaults.ts): latch at 70%, keep the 6 newest tool results, no
 * deeper cut. A test of the engine's behaviour names these, so a change of default is a change of
 * the defaults' own tests (test/rescue/mode-defaults.test.ts, engine-settings.test.ts), not of every test.
 */
import type { SettingsGiven } from '../../src/rescue/index.js';

/** Rescue's levers before issue 40. */
export const CLASSIC: SettingsGiven = { threshold: 0.7, keepRecent: 6, deep: 'none' };
