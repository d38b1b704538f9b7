/** The socket-free epoch engine: what the proxy, `replay` and tests call. */
export {
  DEFAULT_CLASSIFIER_TIMEOUT_MS,
  DEFAULT_ENGINE_SETTINGS,
  DEFAULT_LABELS,
  engineSettingsOf,
  type EngineSettings,
  type LabelMode,
  type SettingsGiven,
} from './engine-settings.js';
export {
  DEFAULT_DEEP_CUT,
  DEFAULT_MODE,
  defaultByMode,
  type KindMode,
  lookUpMode,
  type ModeDefaults,
  modeDefaultsOf,
  type ModeLookup,
  modeRows,
  type ModeWord,
  modeWords,
} from './mode-defaults.js';
export type {
  ClassifierCall,
  ClassifierReport,
  EngineRequest,
  Held,
  ObservedResponse,
  OverflowDeclined,
  OverflowOutcome,
  PassedThrough,
  Prepared,
  Rewritten,
} from './engine-types.js';
export { latchedOf, latchHoldOf, passthroughReasonOf, stubsOf, unreachable } from './prepared-of.js';
export { EpochEngine, type EngineOptions } from './epoch-engine.js';
export { infoOfModeWord } from './latch-kinds.js';
export type { ConversationEntry } from './conversation-table.js';
export type { OriginalChange } from './file-availability.js';
export { contextWindowFor, DEFAULT_CONTEXT_WINDOW, LONG_CONTEXT_WINDOW } from './context-window.js';
