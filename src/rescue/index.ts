/** The socket-free epoch engine: what the proxy, `replay` and tests call. */
export { DEFAULT_CLASSIFIER_TIMEOUT_MS, DEFAULT_ENGINE_SETTINGS, type EngineSettings, type LabelMode } from './engine-settings.js';
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
export type { ConversationEntry } from './conversation-table.js';
export type { OriginalChange } from './file-availability.js';
export { contextWindowFor, DEFAULT_CONTEXT_WINDOW, LONG_CONTEXT_WINDOW } from './context-window.js';
