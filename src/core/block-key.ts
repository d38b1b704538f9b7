/**
 * One name for a frozen or planned block, whatever it stands for: a tool result is named by its
 * ordinal (as every record before parts), a part of the deeper cut by its part and place. Sets of
 * blocks (what is frozen already, what a decision added) compare by this, so a part and a tool
 * result that share an ordinal are never taken for one another.
 */
import type { FrozenBlock } from './epoch-types.js';

/** What names a block. */
export type KeyedBlock = Pick<FrozenBlock, 'ordinal' | 'part' | 'messageIndex' | 'blockIndex' | 'path'>;

/** The block's name: `"12"` for tool result 12, `"tool_input 4/1 [...]"` for a part. */
export function blockKeyOf(block: KeyedBlock): string {
  if (block.part === undefined) return String(block.ordinal);
  return `${block.part} ${block.messageIndex}/${block.blockIndex} ${JSON.stringify(block.path ?? [])}`;
}

/** The names of a list of blocks. */
export function blockKeys(blocks: readonly KeyedBlock[]): Set<string> {
  return new Set(blocks.map(blockKeyOf));
}
