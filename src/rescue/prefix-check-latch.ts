/**
 * Latching a correction epoch when the API refused a request ctxshed changed because a thinking
 * block failed its prefix check (docs/rescue.md, "Preserved thinking"): the record learns that the
 * conversation runs the check, and the epoch (trigger `prefix_check`) removes every thinking block
 * from the request's first change on that no epoch removed yet. Same latch as every other
 * (latch-conversation.ts: files durable first, then the record).
 */
import { firstChangeInRequest, planCorrection, type EpochMode, type TranscriptIndex } from '../core/index.js';
import { sha256Hex } from '../state/sha256-hex.js';
import type { ConversationEntry } from './conversation-table.js';
import { latchWith, type LatchContext } from './latch-conversation.js';
import type { OverflowLatch } from './overflow-latch.js';

/** Plans and latches the correction. A state failure is reported through `onStateFailure`, never thrown. */
export async function latchOnPrefixMismatch(
  ctx: LatchContext,
  entry: ConversationEntry,
  refused: { readonly body: Uint8Array; readonly index: TranscriptIndex; readonly mode: EpochMode },
  onStateFailure: (error: unknown) => void,
): Promise<OverflowLatch> {
  const { body, index, mode } = refused;
  const from = firstChangeInRequest(index, entry.frozen, entry.spans, entry.thinking);
  if (from === undefined) return { kind: 'declined', why: 'nothing_new', detail: 'no change of ctxshed in the request' };
  try {
    const n = await latchWith(ctx, entry, (current) =>
      planCorrection({ key: entry.key, current, model: index.model ?? '', now: ctx.now(), mode, source: { body, index, sha256: sha256Hex, from } }),
    );
    if (n === undefined) return { kind: 'declined', why: 'nothing_new', detail: 'no thinking block left to remove, or removing them would empty a message' };
    return { kind: 'latched', n };
  } catch (error) {
    onStateFailure(error);
    return { kind: 'declined', why: 'state_unavailable' };
  }
}
