/** Whether this request latches a new epoch, and latching it when it does. */
import { decideLatch, firstPromptExcerpt, planElision, type TranscriptIndex } from '../core/index.js';
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
  try {
    return await latchConversation(ctx, entry, {
      added: decision.added,
      reading,
      firstPrompt: firstPromptExcerpt(body, index),
      model: index.model ?? '',
      agentId,
    });
  } catch (error) {
    onStateFailure(error);
    return undefined;
  }
}
