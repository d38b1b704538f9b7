/**
 * The steps of a threshold latch that only the tool-result kind takes (rescue/maybe-latch.ts runs
 * them): the cheap decision on the blocks' sizes before any hashing, then the labels
 * (docs/labels.md), `--labels model`'s classifier call, and `--gate`'s burst gate.
 */
import {
  asksOneHourCache,
  encodeJsonString,
  findEligible,
  freezeLabelled,
  labelBlocks,
  renderStub,
  rescueGateInput,
  tokensPerByteOf,
  type ApiDialect,
  type DecidedBlock,
  type EligibilityMemo,
  type EpochAsk,
  type EpochDecision,
  type EpochTake,
  type FullnessReading,
  type GateDecision,
  type GateInput,
  type PlannedBlock,
  type ToolResultsChoice,
  type ToolResultsLatch,
  type TranscriptIndex,
} from '../core/index.js';
import { sha256Hex } from '../state/sha256-hex.js';
import { commonPrefixLength } from './common-prefix-length.js';
import { stubDirsOf } from './stub-dirs.js';
import type { ConversationEntry } from './conversation-table.js';
import { DEFAULT_CLASSIFIER_TIMEOUT_MS } from './engine-settings.js';
import type { ClassifierReport, EngineRequest } from './engine-types.js';
import type { LatchContext } from './latch-conversation.js';
import { labelByModel } from './model-labels.js';

/**
 * The conversation's eligibility memo (core/eligible-blocks.ts): what its last request over the
 * threshold judged, and where to keep what this one judges.
 */
export interface EligibilitySlot {
  readonly memo: EligibilityMemo | undefined;
  keep(memo: EligibilityMemo): void;
}

/** The engine's decision (core/decide-epoch.ts) with this request's reading, thresholds and turn. */
export type Decide = <B extends DecidedBlock>(take: () => EpochTake<B>) => EpochDecision<B>;

/** What a tool-result step needs of the request. */
export interface ToolResultsRequest {
  readonly entry: ConversationEntry;
  readonly api: ApiDialect;
  readonly headers: EngineRequest['headers'];
  readonly eligibility: EligibilitySlot;
}

/** What the steps after the plan settled: the choice and gate to latch, or the decision that held. */
export type StepsOutcome =
  | { readonly kind: 'latch'; readonly choice: ToolResultsChoice; readonly gate?: GateDecision; readonly classifier?: ClassifierReport }
  | { readonly kind: 'hold'; readonly decision: EpochDecision<DecidedBlock>; readonly classifier?: ClassifierReport };

/**
 * Most requests over the threshold are refused (a gain too small, a stale reading): a refusal
 * needs the blocks' sizes, not their hashes, and blocks the last request judged keep their
 * verdict. The decision on the same blocks unhashed (properties/eligible-blocks.test.ts).
 */
export function decideOnSizes(
  ctx: LatchContext,
  planner: ToolResultsLatch,
  ask: EpochAsk,
  request: ToolResultsRequest,
  decide: Decide,
): EpochDecision<DecidedBlock> {
  const { eligibility } = request;
  return decide(() =>
    planner.takeBlocks(ask, () => {
      const eligible = findEligible(
        ask.body,
        ask.index,
        ctx.settings.policy,
        { elidedDir: stubDirsOf(ctx.table.store.stubDirs, ctx.settings).elidedDir },
        eligibility.memo,
        commonPrefixLength,
      );
      eligibility.keep(eligible.memo);
      return eligible.blocks;
    }),
  );
}

/** Labels the added blocks (and asks the classifier with `--labels model`), then weighs `--gate`. */
export async function labelAndGate(
  ctx: LatchContext,
  planner: ToolResultsLatch,
  ask: EpochAsk,
  request: ToolResultsRequest,
  added: readonly PlannedBlock[],
  decide: Decide,
): Promise<StepsOutcome> {
  const { body, index, reading } = ask;
  // Labels are decided once, here, and frozen with the epoch (docs/labels.md).
  let labels = labelBlocks({ body, index, candidates: added, sha256: sha256Hex, restoreTool: ctx.settings.restoreTool === true, readCalls: request.api.calls });
  let classifier: ClassifierReport | undefined;
  const by = (): { classifier?: ClassifierReport } => (classifier === undefined ? {} : { classifier });
  // The classifier speaks its API to the proxy's upstream: a conversation of another API keeps the local rules' labels.
  if (ctx.settings.labels === 'model' && ctx.classifier !== undefined && request.api.supports.modelLabels) {
    const byModel = await labelByModel({
      ...ctx.classifier,
      key: request.entry.key,
      body,
      index,
      added,
      labels,
      headers: request.headers,
      model: index.model ?? '',
      timeoutMs: ctx.settings.classifierTimeoutMs ?? DEFAULT_CLASSIFIER_TIMEOUT_MS,
    });
    labels = byModel.labels;
    classifier = byModel.report;
    // A block the model keeps frees nothing: the rest must still be worth a cache re-write.
    const unkept = decide(() => planner.takeBlocks(ask, () => added.filter((_, i) => labels[i]?.label !== 'keep')));
    if (unkept.kind === 'hold') return { kind: 'hold', decision: { ...unkept, reason: 'labels_kept' }, ...by() };
  }
  const choice = { added, labels };
  // --gate: the epoch must also pay back its cache re-write within the turns left (docs/shed.md).
  if (ctx.settings.gate !== true) return { kind: 'latch', choice, ...by() };
  const gated = decide(() =>
    planner.takeBlocks(
      ask,
      () => added,
      (blocks) => rescueGate(ctx, body, index, reading, blocks, labels),
    ),
  );
  if (gated.kind !== 'latch') return { kind: 'hold', decision: gated, ...by() };
  return { kind: 'latch', choice, ...(gated.gate === undefined ? {} : { gate: gated.gate }), ...by() };
}

function rescueGate(
  ctx: LatchContext,
  body: Uint8Array,
  index: TranscriptIndex,
  reading: FullnessReading,
  added: readonly PlannedBlock[],
  labels: ToolResultsChoice['labels'] & {},
): GateInput {
  const encoder = new TextEncoder();
  // The epoch as it will be frozen: labelled stubs, and no block the classifier kept.
  const { blocks } = freezeLabelled(added, labels);
  const stubbed = new Set(blocks.map((b) => b.ordinal));
  const stubBytes = blocks.reduce(
    (sum, b) => sum + encodeJsonString(encoder.encode(renderStub(b, stubDirsOf(ctx.table.store.stubDirs, ctx.settings).elidedDir))).length,
    0,
  );
  const { horizon } = ctx.settings;
  return rescueGateInput(
    index,
    added.filter((b) => stubbed.has(b.ordinal)),
    {
      tokensPerByte: tokensPerByteOf(reading),
      stubBytes,
      oneHourCache: asksOneHourCache(body),
      ...(horizon === undefined ? {} : { horizon }),
    },
  );
}
