/**
 * Where a conversation's epochs first change a request, over every kind (kind-info.ts
 * `changesAt`): a correction epoch removes the thinking blocks from there on (docs/rescue.md,
 * "Preserved thinking"), a registered kind's changes counted as the built-ins' are.
 */
import type { BlockPosition } from '../thinking/list-thinking.js';
import type { TranscriptIndex } from '../transcript-index-types.js';
import { itemsOfKind, type FrozenItems } from './frozen-items.js';
import { epochKindInfos } from './kind-info.js';

/**
 * The first place the conversation's frozen items change a body of `index`, as the first position
 * a thinking block they invalidated may lie at; undefined when none of them is in the body.
 */
export function firstChangeOfItems(index: TranscriptIndex, items: FrozenItems): BlockPosition | undefined {
  let first: BlockPosition | undefined;
  for (const kind of epochKindInfos()) {
    if (kind.changesAt === undefined) continue;
    for (const item of itemsOfKind(items, kind.tag)) {
      const at = kind.changesAt(item, index);
      if (
        at !== undefined &&
        (first === undefined || at.messageIndex < first.messageIndex || (at.messageIndex === first.messageIndex && at.blockIndex < first.blockIndex))
      )
        first = at;
    }
  }
  return first;
}
