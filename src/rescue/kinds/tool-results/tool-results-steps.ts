/**
 * The tool-result kind's steps (its record is tool-results-kind.ts): the take the one decision
 * weighs, on the blocks' sizes before any hashing, then the steps after it, which decide nothing
 * again: the hashes, the labels (docs/labels.md), `--labels model`'s classifier call, and
 * `--gate`'s burst gate.
 */
import {
  asksOneHourCache,
  blockKeyOf,
  blockKeys,
  eligibleParts,
  type EligiblePart,
  isPart,
  partsInput,
  encodeJsonString,
  findEligible,
  freezeLabelled,
  labelBlocks,
  renderStub,
  rescueGateInput,
  tokensPerByteOf,
  type ApiDialect,
  type DecidedBlock,
  type EpochAsk,
  type EpochDecision,
  type EpochTake,
  type FullnessReading,
  type GateDecision,
  type GateInput,
  type PlannedBlock,
  type ThresholdSettings,
  weighAdded,
  weighGate,
  type ToolResultsChoice,
  type ToolResultsLatch,
} from '../../../core/index.js';
import { sha256Hex } from '../../../state/sha256-hex.js';
import { commonPrefixLength } from '../../common-prefix-length.js';
import { stubDirsOf } from '../../stub-dirs.js';
import type { ConversationEntry } from '../../conversation-table.js';
import type { ClassifierReport, EngineRequest } from '../../engine-types.js';
import type { LatchContext } from '../../latch-conversation.js';
import type { EligibilitySlot } from '../../latch-kind.js';
import { labelByModel } from '../../model-labels.js';

/** What a tool-result step needs of the request. */
export interface ToolResultsRequest {
  readonly entry: ConversationEntry;
  readonly api: ApiDialect;
  readonly headers: EngineRequest['headers'];
  readonly eligibility: EligibilitySlot;
}

/** What the steps after the decision settled: the choice and gate to latch, or the hold they made. */
export type StepsOutcome =
  | { readonly kind: 'latch'; readonly choice: ToolResultsChoice; readonly gate?: GateDecision; readonly classifier?: ClassifierReport }
  | { readonly kind: 'hold'; readonly decision: EpochDecision<DecidedBlock>; readonly classifier?: ClassifierReport };

/** A decision that latched the blocks' sizes: the engine decides once, on this (core/decide/decide-epoch.ts). */
export type LatchedOnSizes = Extract<EpochDecision<DecidedBlock>, { readonly kind: 'latch' }>;

/**
 * What the one decision weighs: the eligible blocks' sizes, not their hashes. Most requests over
 * the threshold are refused (a gain too small, a stale reading), and a refusal needs no hash;
 * blocks the last request judged keep their verdict. The same blocks as the hashed plan
 * (properties/eligible-blocks.test.ts).
 */
export function takeOnSizes(ctx: LatchContext, planner: ToolResultsLatch, ask: EpochAsk, eligibility: EligibilitySlot): EpochTake<DecidedBlock> {
  return planner.takeBlocks<DecidedBlock>(ask, () => {
    const { elidedDir } = stubDirsOf(ctx.table.store.stubDirs, ctx.settings);
    const eligible = findEligible(ask.body, ask.index, ctx.settings.rescue.policy, { elidedDir }, eligibility.memo, commonPrefixLength);
    eligibility.keep(eligible.memo);
    // The deeper cut's parts, by the same rules as the hashed plan's (plan-parts.ts), unhashed.
    const parts = eligibleParts(partsInput(ask, { policy: ctx.settings.rescue.policy, elidedDir, sha256: sha256Hex }));
    return parts.length === 0 ? eligible.blocks : [...eligible.blocks, ...parts.map(decidedOf)];
  });
}

/** What the decision reads of an eligible part: its name and size. */
function decidedOf(part: EligiblePart): DecidedBlock {
  const { ordinal, bytes, part: kind, messageIndex, blockIndex, path } = part;
  return { ordinal, bytes, part: kind, messageIndex, blockIndex, path };
}

/**
 * The kind's own steps after a decision that latched, none of which decides again: the added
 * blocks hashed (the plan the epoch freezes), labelled (and, with `--labels model`, asked of the
 * classifier: what it keeps frees nothing, so the rest must still be worth the re-write), then
 * `--gate`'s burst gate at the decision's fullness.
 */
export async function afterDecision(
  ctx: LatchContext,
  planner: ToolResultsLatch,
  ask: EpochAsk,
  request: ToolResultsRequest,
  decided: { readonly decision: LatchedOnSizes; readonly thresholds: ThresholdSettings },
): Promise<StepsOutcome> {
  const { body, index, reading } = ask;
  const { decision, thresholds } = decided;
  const added = hashedOf(planner, ask, decision.added);
  // Labels are decided once, here, and frozen with the epoch (docs/labels.md); the deeper cut's
  // parts carry none (their stubs say what they are).
  const results = added.filter((b) => !isPart(b));
  let labels = labelBlocks({
    body,
    index,
    candidates: results,
    sha256: sha256Hex,
    restoreTool: ctx.settings.stubs.restoreTool,
    readCalls: request.api.calls,
  });
  let classifier: ClassifierReport | undefined;
  const by = (): { classifier?: ClassifierReport } => (classifier === undefined ? {} : { classifier });
  // The classifier speaks its API to the proxy's upstream: a conversation of another API keeps the local rules' labels.
  if (ctx.settings.rescue.labels === 'model' && ctx.classifier !== undefined && request.api.supports.modelLabels) {
    const byModel = await labelByModel({
      ...ctx.classifier,
      key: request.entry.key,
      body,
      index,
      added: results,
      labels,
      headers: request.headers,
      model: index.model ?? '',
      timeoutMs: ctx.settings.rescue.classifierTimeoutMs,
    });
    labels = byModel.labels;
    classifier = byModel.report;
    const kept = labelsKept(reading, thresholds, ctx.settings.latch.minGainFraction, added, labels);
    if (kept !== undefined) return { kind: 'hold', decision: kept, ...by() };
  }
  const choice = { added, labels };
  // --gate: the epoch must also pay back its cache re-write within the turns left (docs/shed.md).
  if (!ctx.settings.rescue.gate) return { kind: 'latch', choice, ...by() };
  const gated = weighGate(rescueGate(ctx, ask, added, labels), decision.fullness);
  if (gated.kind === 'hold') return { kind: 'hold', decision: gated, ...by() };
  return { kind: 'latch', choice, gate: gated.gate, ...by() };
}

/** The decided blocks as the hashed plan has them (the same blocks: properties/eligible-blocks.test.ts). */
function hashedOf(planner: ToolResultsLatch, ask: EpochAsk, decided: readonly DecidedBlock[]): PlannedBlock[] {
  const keys = blockKeys(decided);
  const take = planner.take(ask);
  return take.kind === 'blocks' ? take.plan.filter((b) => keys.has(blockKeyOf(b))) : [];
}

/** The hold `labels_kept` when the blocks the classifier did not keep would free too little. */
function labelsKept(
  reading: FullnessReading,
  thresholds: ThresholdSettings,
  minGainFraction: number | undefined,
  added: readonly PlannedBlock[],
  labels: ToolResultsChoice['labels'] & {},
): EpochDecision<DecidedBlock> | undefined {
  // Labels are the tool results' (in their order); the deeper cut's parts are never kept.
  const results = added.filter((b) => !isPart(b));
  const unkept = [...results.filter((_, i) => labels[i]?.label !== 'keep'), ...added.filter(isPart)];
  const weighed = weighAdded(reading, thresholds, [], unkept, minGainFraction);
  if (weighed.kind === 'enough') return undefined;
  const freed = weighed.kind === 'nothing_new' ? 0 : weighed.estimatedTokensFreed;
  return { kind: 'hold', reason: 'labels_kept', detail: `the ${unkept.length} blocks the classifier did not keep free about ${freed} tokens` };
}

function rescueGate(ctx: LatchContext, ask: EpochAsk, added: readonly PlannedBlock[], labels: ToolResultsChoice['labels'] & {}): GateInput {
  const { body, index, reading } = ask;
  const encoder = new TextEncoder();
  // The epoch as it will be frozen: labelled stubs, no block the classifier kept, and the parts.
  const labelled = freezeLabelled(
    added.filter((b) => !isPart(b)),
    labels,
  );
  const blocks = [...labelled.blocks, ...added.filter(isPart)];
  const stubbed = blockKeys(blocks);
  const stubBytes = blocks.reduce(
    (sum, b) => sum + encodeJsonString(encoder.encode(renderStub(b, stubDirsOf(ctx.table.store.stubDirs, ctx.settings).elidedDir))).length,
    0,
  );
  const { horizon } = ctx.settings.latch;
  return rescueGateInput(
    index,
    added.filter((b) => stubbed.has(blockKeyOf(b))),
    {
      tokensPerByte: tokensPerByteOf(reading),
      stubBytes,
      turnsSoFar: ask.modelCalls,
      oneHourCache: asksOneHourCache(body),
      ...(horizon === undefined ? {} : { horizon }),
    },
  );
}
