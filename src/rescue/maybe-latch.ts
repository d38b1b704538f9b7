/** Whether this request latches a new epoch, and latching it when it does. */
import {
  asksOneHourCache,
  crossedThreshold,
  decideEpoch,
  DEFAULT_LATCH_AT,
  turnPlaceOf,
  firedThreshold,
  encodeJsonString,
  findEligible,
  freezeLabelled,
  labelBlocks,
  planElision,
  renderStub,
  rescueGateInput,
  tokensPerByteOf,
  type ApiDialect,
  type BlockLabel,
  type DecidedBlock,
  type EligibilityMemo,
  type EpochDecision,
  type FullnessReading,
  type GateDecision,
  type GateInput,
  type LatchHold,
  type PlannedBlock,
  type ThresholdFired,
  type ThresholdSettings,
  type TranscriptIndex,
} from '../core/index.js';
import { errorText } from '../errors.js';
import { sha256Hex } from '../state/sha256-hex.js';
import { commonPrefixLength } from './common-prefix-length.js';
import type { ConversationEntry } from './conversation-table.js';
import { DEFAULT_CLASSIFIER_TIMEOUT_MS } from './engine-settings.js';
import type { ClassifierReport, EngineRequest } from './engine-types.js';
import { latchConversation, type LatchContext } from './latch-conversation.js';
import { labelByModel } from './model-labels.js';

/**
 * The epoch this request latched, or why it held (every request over the threshold gets one of
 * the two), and ctxshed's own classifier call, if it made one.
 */
export interface LatchOutcome {
  readonly latched?: number;
  readonly hold?: LatchHold;
  readonly classifier?: ClassifierReport;
}

/**
 * The conversation's eligibility memo (core/eligible-blocks.ts): what its last request over the
 * threshold judged, and where to keep what this one judges.
 */
export interface EligibilitySlot {
  readonly memo: EligibilityMemo | undefined;
  keep(memo: EligibilityMemo): void;
}

/** One request, as the latch needs it. */
export interface LatchAsk {
  readonly entry: ConversationEntry;
  readonly body: Uint8Array;
  readonly index: TranscriptIndex;
  readonly api: ApiDialect;
  readonly headers: EngineRequest['headers'];
  readonly agentId: string | undefined;
  readonly onStateFailure: (error: unknown) => void;
  readonly eligibility: EligibilitySlot;
}

/** Cheap test first: planning hashes every eligible block, so only plan when a latch is possible. */
export function isOverThreshold(entry: ConversationEntry, settings: ThresholdSettings): boolean {
  const { reading } = entry;
  return reading !== undefined && crossedThreshold(reading, settings) !== undefined;
}

/** A decision that did not latch, as the outcome says it: its hold, or nothing under the threshold. */
export function holdOf(decision: EpochDecision<DecidedBlock>): LatchOutcome {
  return decision.kind === 'hold' ? { hold: { reason: decision.reason, detail: decision.detail } } : {};
}

/**
 * Decides (core/decide-epoch.ts) on the eligible blocks without hashing them, and only when
 * that says latch: plans (hashes), labels (docs/labels.md) and latches. A state failure is
 * reported through `onStateFailure`, never thrown.
 */
export async function maybeLatch(ctx: LatchContext, ask: LatchAsk): Promise<LatchOutcome> {
  const { entry, body, index, api, eligibility } = ask;
  const { reading } = entry;
  if (reading === undefined) return {};
  const { threshold, rescueTokens, policy, minGainFraction } = ctx.settings;
  const turn = turnPlaceOf(index, entry.record?.prefixCheck !== undefined, ctx.settings.latchAt ?? DEFAULT_LATCH_AT);
  const decide = <B extends DecidedBlock>(plan: () => readonly B[], gate?: (added: readonly B[]) => GateInput): EpochDecision<B> =>
    decideEpoch<B>({
      reading,
      threshold,
      ...(rescueTokens === undefined ? {} : { rescueTokens }),
      epochCount: entry.record?.epochs.length ?? 0,
      ...(minGainFraction === undefined ? {} : { minGainFraction }),
      turn,
      take: () => ({ kind: 'blocks', frozen: entry.frozen, plan: plan(), ...(gate === undefined ? {} : { gate }) }),
    });
  const options = { elidedDir: ctx.table.state.elidedDir };
  // Most requests over the threshold are refused (a gain too small, a stale reading): a refusal
  // needs the blocks' sizes, not their hashes, and blocks the last request judged keep their verdict.
  const cheap = decide(() => {
    const eligible = findEligible(body, index, policy, options, eligibility.memo, commonPrefixLength);
    eligibility.keep(eligible.memo);
    return eligible.blocks;
  });
  if (cheap.kind !== 'latch') return holdOf(cheap);
  // The same blocks, hashed (properties/eligible-blocks.test.ts): the plan the epoch freezes.
  const decision = decide(() => planElision(body, index, policy, sha256Hex, options));
  if (decision.kind !== 'latch') return holdOf(decision);
  // Labels are decided once, here, and frozen with the epoch (docs/labels.md).
  let labels: readonly BlockLabel[] = labelBlocks({
    body,
    index,
    candidates: decision.added,
    sha256: sha256Hex,
    restoreTool: ctx.settings.restoreTool === true,
    readCalls: api.calls,
  });
  let classifier: ClassifierReport | undefined;
  const outcome = (result: { latched?: number; hold?: LatchHold }): LatchOutcome => ({ ...result, ...(classifier === undefined ? {} : { classifier }) });
  // The classifier speaks the Messages API to the proxy's upstream: an OpenAI conversation keeps
  // the local rules' labels.
  if (ctx.settings.labels === 'model' && ctx.classifier !== undefined && api.supports.modelLabels) {
    const byModel = await labelByModel({
      ...ctx.classifier,
      key: entry.key,
      body,
      index,
      added: decision.added,
      labels,
      headers: ask.headers,
      model: index.model ?? '',
      timeoutMs: ctx.settings.classifierTimeoutMs ?? DEFAULT_CLASSIFIER_TIMEOUT_MS,
    });
    labels = byModel.labels;
    classifier = byModel.report;
    // A block the model keeps frees nothing: the rest must still be worth a cache re-write.
    const unkept = decide(() => decision.added.filter((_, i) => labels[i]?.label !== 'keep'));
    if (unkept.kind === 'hold') return outcome({ hold: { reason: 'labels_kept', detail: unkept.detail } });
  }
  // --gate: the epoch must also pay back its cache re-write within the turns left (docs/shed.md).
  let gate: GateDecision | undefined;
  if (ctx.settings.gate === true) {
    const gated = decide(
      () => decision.added,
      (added) => rescueGate(ctx, body, index, reading, added, labels),
    );
    if (gated.kind !== 'latch') return outcome(holdOf(gated));
    gate = gated.gate;
  }
  try {
    const latched = await latchConversation(
      ctx,
      entry,
      {
        added: decision.added,
        labels,
        reading,
        firstPrompt: api.firstPrompt(body, index),
        model: index.model ?? '',
        agentId: ask.agentId,
        ...(gate === undefined ? {} : { gate }),
        ...firedOf(reading, ctx.settings),
      },
      api.supports.thinking ? { body, index, ...(decision.midTurn === true ? { midTurn: true } : {}) } : undefined,
    );
    return outcome(latched === undefined ? { hold: { reason: 'concurrent_latch', detail: 'another latch got there first' } } : { latched });
  } catch (error) {
    ask.onStateFailure(error);
    return outcome({ hold: { reason: 'state_unavailable', detail: errorText(error) } });
  }
}

/** The epoch reason's threshold fields (core/latch-threshold.ts), as a spread for a latch request. */
export function firedOf(reading: FullnessReading, settings: ThresholdSettings): { readonly fired?: ThresholdFired } {
  const fired = firedThreshold(reading, settings);
  return fired === undefined ? {} : { fired };
}

function rescueGate(
  ctx: LatchContext,
  body: Uint8Array,
  index: TranscriptIndex,
  reading: FullnessReading,
  added: readonly PlannedBlock[],
  labels: readonly BlockLabel[],
): GateInput {
  const encoder = new TextEncoder();
  // The epoch as it will be frozen: labelled stubs, and no block the classifier kept.
  const { blocks } = freezeLabelled(added, labels);
  const stubbed = new Set(blocks.map((b) => b.ordinal));
  const stubBytes = blocks.reduce((sum, b) => sum + encodeJsonString(encoder.encode(renderStub(b, ctx.table.state.elidedDir))).length, 0);
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
