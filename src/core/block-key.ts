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

/**
 * Whether `block` is the tool result of one of `ordinals`. The sets the working set and the repeat
 * groups keep are of tool results' ordinals; a part of the deeper cut counts its ordinals among its
 * own places, so it is never in one.
 */
export function isResultIn(block: { readonly ordinal: number; readonly part?: string | undefined }, ordinals: ReadonlySet<number>): boolean {
  return block.part === undefined && ordinals.has(block.ordinal);
}
