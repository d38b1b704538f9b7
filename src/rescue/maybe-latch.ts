/** Whether this request latches a new epoch, and latching it when it does. */
import {
  asksOneHourCache,
  decideBurst,
  decideLatch,
  DEFAULT_TOKENS_PER_BYTE,
  encodeJsonString,
  firstPromptExcerpt,
  freezeLabelled,
  labelBlocks,
  planElision,
  renderStub,
  rescueGateInput,
  type FullnessReading,
  type BlockLabel,
  type GateDecision,
  type PlannedBlock,
  type TranscriptIndex,
} from '../core/index.js';
import { sha256Hex } from '../state/sha256-hex.js';
import type { ConversationEntry } from './conversation-table.js';
import { latchConversation, type LatchContext } from './latch-conversation.js';

/** Cheap test first: planning hashes every eligible block, so only plan when a latch is possible. */
export function isOverThreshold(entry: ConversationEntry, threshold: number): boolean {
  const { reading } = entry;
  return reading !== undefined && reading.contextTokens / reading.window >= threshold;
}

/**
 * Plans, decides (core/latch-decision.ts) and latches. Resolves to the epoch this request
 * latched, or undefined; a state failure is reported through `onStateFailure`, never thrown.
 */
export async function maybeLatch(
  ctx: LatchContext,
  entry: ConversationEntry,
  body: Uint8Array,
  index: TranscriptIndex,
  agentId: string | undefined,
  onStateFailure: (error: unknown) => void,
): Promise<number | undefined> {
  const { reading } = entry;
  if (reading === undefined) return undefined;
  const { threshold, policy, minGainFraction } = ctx.settings;
  const plan = planElision(body, index, policy, sha256Hex, { elidedDir: ctx.table.state.elidedDir });
  const decision = decideLatch({
    reading,
    threshold,
    frozen: entry.frozen,
    epochCount: entry.record?.epochs.length ?? 0,
    plan,
    ...(minGainFraction === undefined ? {} : { minGainFraction }),
  });
  if (!decision.latch) return undefined;
  // Labels are decided once, here, and frozen with the epoch (docs/labels.md).
  const labels = labelBlocks({ body, index, candidates: decision.added, sha256: sha256Hex, restoreTool: ctx.settings.restoreTool === true });
  // --gate: the epoch must also pay back its cache re-write within the turns left (docs/shed.md).
  const gate = ctx.settings.gate === true ? rescueGate(ctx, body, index, reading, decision.added, labels) : undefined;
  if (gate !== undefined && !gate.latch) return undefined;
  try {
    return await latchConversation(ctx, entry, {
      added: decision.added,
      labels,
      reading,
      firstPrompt: firstPromptExcerpt(body, index),
      model: index.model ?? '',
      agentId,
      ...(gate === undefined ? {} : { gate }),
    });
  } catch (error) {
    onStateFailure(error);
    return undefined;
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
  // The stubs the epoch would send: labelled ones, as it will freeze them.
  const { blocks } = freezeLabelled(added, labels);
  const stubBytes = blocks.reduce((sum, b) => sum + encodeJsonString(encoder.encode(renderStub(b, ctx.table.state.elidedDir))).length, 0);
  const { horizon } = ctx.settings;
  return decideBurst(
    rescueGateInput(index, added, {
      tokensPerByte: tokensPerByteOf(reading),
      stubBytes,
      oneHourCache: asksOneHourCache(body),
      ...(horizon === undefined ? {} : { horizon }),
    }),
  );
}
