/**
 * The thinking blocks a latch freezes for removal (docs/rescue.md, "Preserved thinking"). On a
 * model that runs the prefix check, an epoch's edit invalidates every thinking block after the
 * first place it changes; the epoch removes those from this request and every later one, so the
 * blocks the model produces afterwards sit on a prefix that never changes again. Pure.
 */
import type { Sha256 } from '../ports.js';
import type { TranscriptIndex } from '../transcript-index-types.js';
import { isAtOrAfter, listThinking, type BlockPosition } from './list-thinking.js';
import type { FrozenThinking, PlannedThinking } from './thinking-types.js';

/** The blocks to freeze, or why the epoch must hold. */
export type ThinkingPlan =
  | { readonly kind: 'planned'; readonly thinking: readonly PlannedThinking[] }
  /**
   * Removing the blocks would leave an assistant message with no content, which the API refuses;
   * the latch holds rather than send that (or send blocks the prefix check would refuse).
   */
  | { readonly kind: 'lone_thinking'; readonly messageIndex: number };

/**
 * Every thinking and redacted_thinking block at or after `from` that no earlier epoch froze
 * (`already`: matched by ordinal), with its exact bytes and their sha256.
 */
export function planThinking(body: Uint8Array, index: TranscriptIndex, from: BlockPosition, already: readonly FrozenThinking[], sha256: Sha256): ThinkingPlan {
  const frozen = new Set(already.map((t) => t.ordinal));
  const all = listThinking(index);
  const added = all.filter((t) => !frozen.has(t.ordinal) && isAtOrAfter(t, from));
  const adding = new Set(added.map((t) => t.ordinal));
  // What each message would keep once every frozen block (old and new) is gone.
  const removed = new Map<number, number>();
  for (const t of all) {
    if (frozen.has(t.ordinal) || adding.has(t.ordinal)) removed.set(t.messageIndex, (removed.get(t.messageIndex) ?? 0) + 1);
  }
  for (const t of added) {
    if (index.messages[t.messageIndex]!.blocks.length - removed.get(t.messageIndex)! <= 0) return { kind: 'lone_thinking', messageIndex: t.messageIndex };
  }
  const thinking = added.map((t): PlannedThinking => {
    const bytes = body.slice(t.block.start, t.block.end);
    const { sepBefore, sepAfter } = separatorsOf(body, index, t);
    return {
      ordinal: t.ordinal,
      messageIndex: t.messageIndex,
      blockIndex: t.blockIndex,
      type: t.type,
      jsonBytes: bytes.length,
      sha256: sha256(bytes),
      ...(sepBefore === undefined || sepBefore === ',' ? {} : { sepBefore }),
      ...(sepAfter === undefined || sepAfter === ',' ? {} : { sepAfter }),
      bytes,
    };
  });
  return { kind: 'planned', thinking };
}

/** A planned block as the record keeps it (without its bytes). */
export function freezeThinking(planned: PlannedThinking): FrozenThinking {
  const { bytes: _bytes, ...frozen } = planned;
  return frozen;
}

const LATIN1 = new TextDecoder('latin1');

/**
 * The separator bytes on each side of a block (JSON whitespace and one comma: ASCII), undefined
 * where it has no neighbour.
 */
export function separatorsOf(body: Uint8Array, index: TranscriptIndex, at: BlockPosition): { sepBefore?: string; sepAfter?: string } {
  const blocks = index.messages[at.messageIndex]!.blocks;
  const block = blocks[at.blockIndex]!;
  const before = blocks[at.blockIndex - 1];
  const after = blocks[at.blockIndex + 1];
  return {
    ...(before === undefined ? {} : { sepBefore: LATIN1.decode(body.subarray(before.end, block.start)) }),
    ...(after === undefined ? {} : { sepAfter: LATIN1.decode(body.subarray(block.end, after.start)) }),
  };
}
