/**
 * Latching a correction epoch when the API refused a request ctxshed changed because a thinking
 * block failed its prefix check (docs/rescue.md, "Preserved thinking"): the record learns that the
 * conversation runs the check, and the epoch (trigger `prefix_check`) removes every thinking block
 * from the request's first change on that no epoch removed yet. Same latch as every other
 * (latch-conversation.ts: files durable first, then the record).
 */
import { firstChangeOfItems, planCorrection, type CorrectionDeclined, type TranscriptIndex } from '../core/index.js';
import { sha256Hex } from '../state/sha256-hex.js';
import type { ConversationEntry } from './conversation-table.js';
import { latchWith, type LatchContext } from './latch-conversation.js';
import type { OverflowLatch } from './overflow-latch.js';

/** Plans and latches the correction. A state failure is reported through `onStateFailure`, never thrown. */
export async function latchOnPrefixMismatch(
  ctx: LatchContext,
  entry: ConversationEntry,
  refused: { readonly body: Uint8Array; readonly index: TranscriptIndex },
  onStateFailure: (error: unknown) => void,
): Promise<OverflowLatch> {
  const { body, index } = refused;
  const from = firstChangeOfItems(index, entry.items);
  if (from === undefined) return { kind: 'declined', why: 'nothing_new', detail: 'no change of ctxshed in the request' };
  let declined: CorrectionDeclined | undefined;
  try {
    const write = await latchWith(ctx, entry, (current) => {
      const planned = planCorrection({
        key: entry.key,
        current,
        model: index.model ?? '',
        now: ctx.now(),
        source: { body, index, sha256: sha256Hex, from },
      });
      if (planned.kind === 'planned') return planned.plan;
      declined = planned.why;
      return undefined;
    });
    if (write.kind === 'latched') return { kind: 'latched', n: write.n };
    // A concurrent latch's epoch stands: the retry then carries whatever it froze.
    if (write.why === 'concurrent_latch') return { kind: 'latched', n: undefined };
    return declined === 'empty_message'
      ? { kind: 'declined', why: 'empty_message', detail: 'removing the thinking blocks would leave an assistant message empty' }
      : { kind: 'declined', why: 'no_thinking', detail: 'no thinking block left to remove' };
  } catch (error) {
    onStateFailure(error);
    return { kind: 'declined', why: 'state_unavailable' };
  }
}
