/**
 * Where a frozen part of the deeper cut changes a request: its block, and the byte its stub starts
 * at. The thinking rules read the first (an edit invalidates the thinking blocks after it, on a
 * model that runs the prefix check: docs/rescue.md "Preserved thinking"), the burst gate the second
 * (the cache is re-written from the first change on).
 */
import type { FrozenBlock } from './epoch-types.js';
import { partBlock } from './part-value.js';
import type { TranscriptIndex } from './transcript-index-types.js';

/** What a place is read from: a block's part fields (absent: a tool result) and its call's id. */
export type PlacedBlock = Partial<Pick<FrozenBlock, 'part' | 'messageIndex' | 'blockIndex' | 'path' | 'toolUseId'>>;

/** A part's place in a body of `index`: the position just after its block, and where its block starts. */
export interface PartPlace {
  readonly messageIndex: number;
  /** The block after the part's own: the first place a thinking block it invalidated may lie. */
  readonly blockIndex: number;
  /** The byte its block starts at. */
  readonly start: number;
}

/** The place of `block` when it is a part still in this body; undefined for a tool result, or a part gone. */
export function partPlaceOf(block: PlacedBlock, index: TranscriptIndex): PartPlace | undefined {
  const { part, messageIndex, blockIndex } = block;
  if (part === undefined || messageIndex === undefined || blockIndex === undefined) return undefined;
  const found = partBlock(index, { part, messageIndex, blockIndex, path: block.path ?? [], toolUseId: block.toolUseId ?? '' });
  return typeof found === 'string' ? undefined : { messageIndex, blockIndex: blockIndex + 1, start: found.start };
}
