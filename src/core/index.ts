/** ctxshed's pure core: no I/O, no clock, no `node:` imports. The edges import from here. */
export {
  BLOCK_PARTS,
  type BlockPart,
  CONVERSATION_FORMAT,
  type ConversationRecord,
  type DeepCut,
  type ElisionPolicy,
  type Epoch,
  type EpochMode,
  type FrozenBlock,
  isPart,
  type KindTag,
  type ToolResultEpoch,
} from './epoch-types.js';
export { blockKeyOf, blockKeys } from './block-key.js';
export type { PartSiteReader } from './part-sites.js';
export { triggerOf } from './epoch-trigger.js';
export type { CommonPrefixLength, Sha256 } from './ports.js';
export { MAX_JSON_DEPTH, scanArray, scanDocument, scanObject, scanString, scanValue } from './json-scan.js';
export { encodeJsonString } from './json-string.js';
export { type IndexOutcome, indexTranscript, type MessageInfo, type Span, type ToolResultInfo, type TranscriptIndex } from './transcript-index.js';
export { DROP_STUB_PREFIX, elidedTextPath, parseStub, renderStub, STUB_PREFIX } from './stub.js';
export { type LabelledBlock, renderLabelStub } from './label-stub.js';
export { applySplices, planSplices } from './splices.js';
export {
  CLIENT_CLEARED_PLACEHOLDER,
  DEFAULT_KEEP_RECENT,
  DEFAULT_MIN_ELIDE_BYTES,
  DEFAULT_POLICY,
  freezeBlock,
  planElision,
  type PlannedBlock,
  POLICY_NAME,
  POLICY_VERSION,
} from './plan-elision.js';
export { type EligibilityMemo, findEligible } from './eligible-blocks.js';
export { PASSTHROUGH_REASONS, type PassthroughReason } from './passthrough-reasons.js';
export {
  type AppliedSpan,
  applyEpochs,
  applyInflate,
  checkRewrite,
  checkShed,
  type EpochAsk,
  type EpochOutcome,
  type EpochPlanner,
  EPOCH_KIND_INFO,
  type EpochKindInfo,
  epochKindInfo,
  epochKindInfos,
  findPartStubs,
  findSpanStubs,
  findStubs,
  type FoundPartStub,
  type FoundSpanStub,
  type FoundStub,
  type FrozenItems,
  frozenItemsOf,
  hasFrozenItems,
  type InflateSite,
  itemsOfKind,
  itemsUnder,
  KIND_NAME,
  kindOfFirstEpoch,
  kindOfMode,
  modeFieldOf,
  modeOfEpoch,
  kindOfOriginals,
  NO_ITEMS,
  type OriginalFileExt,
  originalsNamedBy,
  frozenShas,
  firstChangeOfItems,
  shasFrozenBy,
  NO_WORKING_SET,
  type OverflowAsk,
  pressedReading,
  registerEpochKind,
  registeredKinds,
  renderingOf,
  restoredContent,
  type RewriteOptions,
  type RewriteOutcome,
  rewriteRequest,
  type ShedOptions,
  type SkippedBlock,
  SPANS,
  spansLatch,
  type StubbedBlock,
  TOOL_RESULTS,
  type ToolResultsChoice,
  toolResultsLatch,
  type ToolResultsLatch,
  type ToolResultsOverflow,
  toolResultsOverflowTake,
  type EligiblePart,
  eligibleParts,
  partsInput,
  planParts,
  type WorkingSet,
  workingSetOf,
  workingSetOfAsk,
  workingSetOrdinals,
  repeatGroupsOfAsk,
  wholeGroups,
} from './epochs/index.js';
export { conversationKey, conversationKeyOf, firstPromptExcerpt, promptOfFirstMessage } from './conversation-key.js';
export { findFirstMessage } from './first-message.js';
export { readBodyModelResumed, type ModelMemo } from './head-model-memo.js';
export { KeyMemo } from './key-memo.js';
export { decideContextWindow, DEFAULT_CONTEXT_WINDOW, LONG_CONTEXT_WINDOW, modelContextWindow } from './context-window.js';
export { DEFAULT_TOKENS_PER_BYTE, type FullnessReading, tokensPerByteOf } from './fullness-reading.js';
export { type DecidedBlock, DEFAULT_MIN_GAIN_FRACTION, weighAdded } from './weigh-added.js';
export type { HoldReason, LatchHold } from './decide/hold-reasons.js';
export type { EpochTake } from './epoch-take.js';
export { decideEpoch, type DecideEpoch, type EpochDecision, weighGate } from './decide/decide-epoch.js';
export { type EpochPart, type ItemsPart, type LatchPlan, type PlannedFile, type PlannedOriginal, planRecord } from './plan-record.js';
export { contextTokensOf, type Usage } from './usage.js';
export {
  asksOneHourCache,
  chooseSpan,
  decideBurst,
  DEFAULT_SHED_POLICY,
  estimateSpanTokens,
  fixedRecentBudget,
  freezeSpan,
  type FrozenSpan,
  GATE_CEILING,
  type GateDecision,
  type GateInput,
  GOAL_MARKER,
  isClientNotice,
  isPersonTurn,
  isRestoreCall,
  latestPrompt,
  type MessageFacts,
  parseSpanStub,
  type PlannedSpan,
  planShed,
  planShedToFit,
  priceShed,
  promptExcerpt,
  readItemFacts,
  readMessagesFacts,
  READ_PAGE_CHARS,
  readPagesOf,
  renderSpanMarkdown,
  renderSpanStub,
  rescueGateInput,
  SHED_POLICY_NAME,
  SHED_POLICY_VERSION,
  SHED_REFUSALS,
  type ShedBasis,
  shedGateInput,
  type ShedPolicy,
  type ShedPrice,
  type SkippedSpan,
  SPAN_STUB_PREFIX,
  SPAN_STUB_TOKENS_PER_BYTE,
  spanFilePath,
  spanStubMessage,
  TOMBSTONE_MAX_CHARS,
  wellFormed,
} from './shed/index.js';
export { commonPrefixLengthLoop } from './common-prefix.js';
export type { RewriteMemo } from './rewrite/rewrite-memo.js';
export { type IncrementalIndex, indexIncrementally } from './rewrite/incremental-index.js';
export { rewriteIncrementally } from './rewrite/incremental-rewrite.js';
export { DEFAULT_MEMO_LIMITS, MemoCache, type MemoLimits } from './rewrite/memo-cache.js';
export {
  applyClassifierScores,
  type BlockLabel,
  buildClassifierRequest,
  checkEpochLedger,
  CHUNK_HEAD_MAX_CHARS,
  CLASSIFIER_LABELS,
  countVerdicts,
  currentTask,
  describeInput,
  freezeLabelled,
  type Label,
  LABEL_RULES,
  labelBlocks,
  LABELS_POLICY_VERSION,
  type LabelScores,
  LEDGER_SHA_HEX,
  type LedgerRow,
  mainInputOf,
  parseClassifierResponse,
  REFETCH_ROUTES,
  renderLedgerLine,
  selectClassifierChunks,
} from './labels/index.js';
export { type OverflowReading, readPromptTooLong, type TooLongRefusal } from './prompt-too-long.js';
export { overflowReadingOf } from './estimate-overflow.js';
export { decideOverflow } from './overflow-decision.js';
export type { ToolCall } from './read-tool-calls.js';
export { detectRefaults, detectShellRefaults, MIN_RESTORE_PREFIX_HEX, type Refault, RESTORE_TOOL_NAME, shasReadBack } from './detect-refaults.js';
export {
  type ApiDialect,
  CHAT_API,
  CODEX_SESSION_HEADER,
  dialectOf,
  dialectOfTarget,
  indexAnyApi,
  type KeyLookup,
  MESSAGES_API,
  type ModelRoute,
  modelRouteOf,
  readsFullness,
  registerDialect,
  RESPONSES_API,
  type ShapedError,
  toMessagesUsage,
  type UsageEvents,
  type UsageNote,
} from './dialects/index.js';
export {
  codexReleaseOf,
  decideStreamHead,
  indexChat,
  indexResponses,
  isCompactionTrigger,
  OPENAI_MODEL_WINDOWS,
  openAiConversationKey,
  openAiFirstPrompt,
  type OpenAiIndex,
  type OpenAiIndexOutcome,
  openAiModelWindow,
  parseEventData,
  readChatUsage,
  readContextLengthExceeded,
  readNewestOpenAiCalls,
  readOpenAiCalls,
  readResponsesUsage,
  requestClassOfBody,
  shellLine,
  streamedFailureBody,
} from './openai/index.js';
export {
  crossedThreshold,
  DEFAULT_LONG_WINDOW_RESCUE_TOKENS,
  firedThreshold,
  gainFloorTokens,
  type ThresholdFired,
  type ThresholdSettings,
  tokenThresholdFor,
} from './latch-threshold.js';
export { CACHE_TTL_1H_MS, CACHE_TTL_5M_MS, type ColdThresholds, isPredictedCold, type RequestThresholds, thresholdsFor } from './cache-cold.js';
export {
  type CorrectionDeclined,
  DEFAULT_LATCH_AT,
  firstChangeOf,
  freezeThinking,
  freezeThinkingInPlan,
  type FrozenThinking,
  judgeThinking,
  type LatchAt,
  listThinking,
  planCorrection,
  type PlannedThinking,
  planThinking,
  type PrefixMismatch,
  readPrefixMismatch,
  reinsertThinking,
  type RestoredThinking,
  type SkippedThinking,
  turnPlaceOf,
} from './thinking/index.js';
export {
  COMPACTION_HEADER,
  isSideCall,
  mayLatchOnThreshold,
  readRequestClass,
  REQUEST_CLASS_HEADER,
  REQUEST_CLASSES,
  type RequestClass,
} from './request-class.js';
export {
  AUTOCOMPACT_BUFFER_TOKENS,
  CLIENT_OUTPUT_RESERVE_TOKENS,
  clientCompactionPoint,
  effectiveCompactWindow,
  parseAutoCompactWindow,
} from './client-compaction.js';
export {
  applyRepeats,
  findRepeatPointers,
  findRepeats,
  type FoundRepeat,
  parseRepeatPointer,
  planRepeats,
  renderRepeatPointer,
  repeatContent,
  REPEAT_MIN_CHARS,
} from './repeats/index.js';
