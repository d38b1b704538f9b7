/** Whether this request latches a new epoch, and latching it when it does. */
import {
  asksOneHourCache,
  decideBurst,
  decideLatch,
  DEFAULT_TOKENS_PER_BYTE,
  encodeJsonString,
  findEligible,
  firstPromptExcerpt,
  openAiFirstPrompt,
  freezeLabelled,
  labelBlocks,
  planElision,
  renderStub,
  rescueGateInput,
  type ApiDialect,
  type BlockLabel,
  type DecidedBlock,
  type EligibilityMemo,
  type FullnessReading,
  type GateDecision,
  type PlannedBlock,
  type TranscriptIndex,
} from '../core/index.js';
import { sha256Hex } from '../state/sha256-hex.js';
import { commonPrefixLength } from './common-prefix-length.js';
import type { ConversationEntry } from './conversation-table.js';
import { DEFAULT_CLASSIFIER_TIMEOUT_MS } from './engine-settings.js';
import type { ClassifierReport, EngineRequest } from './engine-types.js';
import { latchConversation, type LatchContext } from './latch-conversation.js';
import { labelByModel } from './model-labels.js';

/** The epoch this request latched, if it did, and ctxshed's own classifier call, if it made one. */
export interface LatchOutcome {
  readonly latched?: number;
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

/** Cheap test first: planning hashes every eligible block, so only plan when a latch is possible. */
export function isOverThreshold(entry: ConversationEntry, threshold: number): boolean {
  const { reading } = entry;
  return reading !== undefined && reading.contextTokens / reading.window >= threshold;
}

/**
 * Decides (core/latch-decision.ts) on the eligible blocks without hashing them, and only when
 * that says latch: plans (hashes), labels (docs/labels.md) and latches. A state failure is
 * reported through `onStateFailure`, never thrown.
 */
export async function maybeLatch(
  ctx: LatchContext,
  entry: ConversationEntry,
  body: Uint8Array,
  index: TranscriptIndex,
  api: ApiDialect,
  headers: EngineRequest['headers'],
  agentId: string | undefined,
  onStateFailure: (error: unknown) => void,
  eligibility: EligibilitySlot,
): Promise<LatchOutcome> {
  const { reading } = entry;
  if (reading === undefined) return {};
  const { threshold, policy, minGainFraction } = ctx.settings;
  const decide = <B extends DecidedBlock>(candidates: readonly B[]): ReturnType<typeof decideLatch<B>> =>
    decideLatch<B>({
      reading,
      threshold,
      frozen: entry.frozen,
      epochCount: entry.record?.epochs.length ?? 0,
      plan: candidates,
      ...(minGainFraction === undefined ? {} : { minGainFraction }),
    });
  const options = { elidedDir: ctx.table.state.elidedDir };
  // Most requests over the threshold are refused (a gain too small, a stale reading): a refusal
  // needs the blocks' sizes, not their hashes, and blocks the last request judged keep their verdict.
  const eligible = findEligible(body, index, policy, options, eligibility.memo, commonPrefixLength);
  eligibility.keep(eligible.memo);
  if (!decide(eligible.blocks).latch) return {};
  // The same blocks, hashed (properties/eligible-blocks.test.ts): the plan the epoch freezes.
  const decision = decide(planElision(body, index, policy, sha256Hex, options));
  if (!decision.latch) return {};
  // Labels are decided once, here, and frozen with the epoch (docs/labels.md).
  let labels: readonly BlockLabel[] = labelBlocks({ body, index, candidates: decision.added, sha256: sha256Hex, restoreTool: ctx.settings.restoreTool === true });
  let classifier: ClassifierReport | undefined;
  const outcome = (latched?: number): LatchOutcome => ({ ...(latched === undefined ? {} : { latched }), ...(classifier === undefined ? {} : { classifier }) });
  // The classifier speaks the Messages API to the proxy's upstream: an OpenAI conversation keeps
  // the local rules' labels.
  if (ctx.settings.labels === 'model' && ctx.classifier !== undefined && api.name === 'messages') {
    const byModel = await labelByModel({
      ...ctx.classifier,
      key: entry.key,
      body,
      index,
      added: decision.added,
      labels,
      headers,
      model: index.model ?? '',
      timeoutMs: ctx.settings.classifierTimeoutMs ?? DEFAULT_CLASSIFIER_TIMEOUT_MS,
    });
    labels = byModel.labels;
    classifier = byModel.report;
    // A block the model keeps frees nothing: the rest must still be worth a cache re-write.
    if (!decide(decision.added.filter((_, i) => labels[i]?.label !== 'keep')).latch) return outcome();
  }
  // --gate: the epoch must also pay back its cache re-write within the turns left (docs/shed.md).
  const gate = ctx.settings.gate === true ? rescueGate(ctx, body, index, reading, decision.added, labels) : undefined;
  if (gate !== undefined && !gate.latch) return outcome();
  try {
    return outcome(
      await latchConversation(ctx, entry, {
        added: decision.added,
        labels,
        reading,
        firstPrompt: api.name === 'messages' ? firstPromptExcerpt(body, index) : openAiFirstPrompt(body, index),
        model: index.model ?? '',
        agentId,
        ...(gate === undefined ? {} : { gate }),
      }, api.name === 'messages' ? { body, index } : undefined),
    );
  } catch (error) {
    onStateFailure(error);
    return outcome();
  }
}

/** The conversation's tokens per body byte, from its last reading. */
export function tokensPerByteOf(reading: FullnessReading): number {
  return reading.requestBytes > 0 ? reading.contextTokens / reading.requestBytes : DEFAULT_TOKENS_PER_BYTE;
}

function rescueGate(
  ctx: LatchContext,
  body: Uint8Array,
  index: TranscriptIndex,
  reading: FullnessReading,
  added: readonly PlannedBlock[],
  labels: readonly BlockLabel[],
): GateDecision {
  const encoder = new TextEncoder();
  // The epoch as it will be frozen: labelled stubs, and no block the classifier kept.
  const { blocks } = freezeLabelled(added, labels);
  const stubbed = new Set(blocks.map((b) => b.ordinal));
  const stubBytes = blocks.reduce((sum, b) => sum + encodeJsonString(encoder.encode(renderStub(b, ctx.table.state.elidedDir))).length, 0);
  const { horizon } = ctx.settings;
  return decideBurst(
    rescueGateInput(
      index,
      added.filter((b) => stubbed.has(b.ordinal)),
      {
        tokensPerByte: tokensPerByteOf(reading),
        stubBytes,
        oneHourCache: asksOneHourCache(body),
        fullness: fullnessOf(reading),
        ...(horizon === undefined ? {} : { horizon }),
      },
    ),
  );
}

/** The reading's fullness: its context over its window. */
export function fullnessOf(reading: FullnessReading): number {
  return reading.window > 0 ? reading.contextTokens / reading.window : 0;
}
