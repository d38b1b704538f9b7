/** ctxshed's pure core: no I/O, no clock, no `node:` imports. The edges import from here. */
export {
  BLOCK_PARTS,
  type BlockPart,
  type ConversationRecord,
  type DeepCut,
  type ElisionPolicy,
  type Epoch,
  type EpochMode,
  type FrozenBlock,
  isPart,
  type KindTag,
} from './epoch-types.js';
export { blockKeyOf, blockKeys } from './block-key.js';
export type { PartSiteReader } from './part-sites.js';
export type { CommonPrefixLength, Sha256 } from './ports.js';
export { encodeJsonString } from './json-string.js';
export { type IndexOutcome, indexTranscript, type TranscriptIndex } from './messages/transcript-index.js';
export { parseStub, renderStub } from './stub.js';
export { applySplices, planSplices } from './splices.js';
export { DEFAULT_KEEP_RECENT, DEFAULT_MIN_ELIDE_BYTES, freezeBlock, planElision, type PlannedBlock, POLICY_NAME } from './plan-elision.js';
export { type EligibilityMemo, findEligible } from './eligible-blocks.js';
export type { PassthroughReason } from './passthrough-reasons.js';
export {
  applyEpochs,
  applyInflate,
  type EpochAsk,
  type EpochOutcome,
  type EpochPlanner,
  EPOCH_KIND_INFO,
  type EpochKindInfo,
  epochKindInfo,
  epochKindInfos,
  type FrozenItems,
  figuresOfEpoch,
  frozenItemsOf,
  hasFrozenItems,
  type InflateSite,
  itemsOfKind,
  KIND_NAME,
  type ListedUnder,
  blocksOf,
  itemsOfEpoch,
  spanOf,
  frozenThinkingOf,
  kindOfConversation,
  kindOfMode,
  modeOfConversation,
  kindOfOriginals,
  NO_ITEMS,
  type OriginalFileExt,
  originalsNamedBy,
  frozenShas,
  firstChangeOfEpoch,
  firstChangeOfItems,
  shasFrozenBy,
  NO_WORKING_SET,
  type OverflowAsk,
  registerEpochKind,
  renderingOf,
  type RestorableBlock,
  type RestorableSpan,
  type ShownExt,
  type SpanSummary,
  rewriteRequest,
  type SkippedBlock,
  SPANS,
  spansLatch,
  type ToolResultsChoice,
  toolResultsLatch,
  type ToolResultsLatch,
  type EligiblePart,
  eligibleParts,
  partsInput,
  type WorkingSet,
  workingSetOf,
} from './epochs/index.js';
export { conversationKeyOf, firstPromptExcerpt, promptOfFirstMessage } from './conversation-key.js';
export { findFirstMessage } from './first-message.js';
export { readBodyModelResumed, type ModelMemo } from './head-model-memo.js';
export { KeyMemo } from './key-memo.js';
export { decideContextWindow, DEFAULT_CONTEXT_WINDOW, LONG_CONTEXT_WINDOW, modelContextWindow } from './context-window.js';
export { DEFAULT_TOKENS_PER_BYTE, type FullnessReading, tokensPerByteOf } from './fullness-reading.js';
export { type DecidedBlock, DEFAULT_MIN_GAIN_FRACTION, weighAdded } from './weigh-added.js';
export type { HoldReason, LatchHold } from './decide/hold-reasons.js';
export type { EpochTake } from './epoch-take.js';
export { decideEpoch, type DecideEpoch, type EpochDecision, weighGate } from './decide/decide-epoch.js';
export { type EpochPart, type LatchPlan, type PlannedFile, planRecord } from './plan-record.js';
export { contextTokensOf, type Usage } from './usage.js';
export {
  asksOneHourCache,
  DEFAULT_SHED_POLICY,
  type FrozenSpan,
  GATE_CEILING,
  type GateDecision,
  type GateInput,
  isRestoreCall,
  priceShed,
  readPagesOf,
  rescueGateInput,
  type ShedBasis,
  type ShedPolicy,
  type SkippedSpan,
} from './shed/index.js';
export type { RewriteMemo } from './rewrite/rewrite-memo.js';
export { type IncrementalIndex, indexIncrementally } from './rewrite/incremental-index.js';
export { rewriteIncrementally } from './rewrite/incremental-rewrite.js';
export { DEFAULT_MEMO_LIMITS, MemoCache, type MemoLimits } from './rewrite/memo-cache.js';
export {
  applyClassifierScores,
  type BlockLabel,
  buildClassifierRequest,
  checkEpochLedger,
  countVerdicts,
  currentTask,
  freezeLabelled,
  type Label,
  LABEL_RULES,
  labelBlocks,
  LABELS_POLICY_VERSION,
  type LabelScores,
  LEDGER_SHA_HEX,
  type LedgerRow,
  parseClassifierResponse,
  REFETCH_ROUTES,
  renderLedgerLine,
  selectClassifierChunks,
} from './labels/index.js';
export type { OverflowReading, TooLongRefusal } from './prompt-too-long.js';
export { overflowReadingOf } from './estimate-overflow.js';
export { decideOverflow } from './overflow-decision.js';
export { MIN_RESTORE_PREFIX_HEX, type Refault, RESTORE_TOOL_NAME, shasReadBack } from './detect-refaults.js';
export {
  type ApiDialect,
  dialectOf,
  dialectOfTarget,
  indexAnyApi,
  type KeyLookup,
  MESSAGES_API,
  type ModelRoute,
  modelRouteOf,
  readsFullness,
  type ShapedError,
} from './dialects/index.js';
export { decideStreamHead, openAiModelWindow, requestClassOfBody, streamedFailureBody } from './openai/index.js';
export {
  crossedThreshold,
  DEFAULT_LONG_WINDOW_RESCUE_TOKENS,
  firedThreshold,
  type ThresholdFired,
  type ThresholdSettings,
  tokenThresholdFor,
} from './latch-threshold.js';
export { type ColdThresholds, isPredictedCold, type RequestThresholds, thresholdsFor } from './cache-cold.js';
export {
  type CorrectionDeclined,
  DEFAULT_LATCH_AT,
  freezeThinkingInPlan,
  type FrozenThinking,
  judgeThinking,
  type LatchAt,
  listThinking,
  planCorrection,
  type PrefixMismatch,
  readPrefixMismatch,
  reinsertThinking,
  type RestoredThinking,
  type SkippedThinking,
  turnPlaceOf,
} from './thinking/index.js';
export { COMPACTION_HEADER, isSideCall, mayLatchOnThreshold, readRequestClass, REQUEST_CLASS_HEADER, type RequestClass } from './request-class.js';
export { AUTOCOMPACT_BUFFER_TOKENS, CLIENT_OUTPUT_RESERVE_TOKENS, clientCompactionPoint, parseAutoCompactWindow } from './client-compaction.js';
export { applyRepeats, findRepeatPointers, findRepeats, type FoundRepeat, planRepeats, repeatContent } from './repeats/index.js';
