/** The state directory: where epochs, elided files and the wire log live (see layout.ts). */
export { appendWireRecord, WireLog, WIRE_TORN_MARKER } from './wire-log.js';
export {
  CONVERSATION_FORMAT,
  FIRST_PROMPT_MAX_CHARS,
  parseConversationRecord,
  serializeConversationRecord,
  type ConversationRecord,
} from './conversation-record.js';
export { writeElidedFile } from './elided-file.js';
export { latchEpoch, type LatchDecision, type LatchPlan, type PlannedFile } from './latch-epoch.js';
export { conversationPath, elidedPath, isTempLeftover, type ElidedExt, type StateDir } from './layout.js';
export { openStateDir } from './open-state-dir.js';
export { listConversations, readConversation } from './read-conversation.js';
export { resolveStateDir } from './resolve-state-dir.js';
export { sha256Hex } from './sha256-hex.js';
export { StateError, type StateErrorCode } from './state-error.js';
export { verifyState, type VerifyReport } from './verify-state.js';
