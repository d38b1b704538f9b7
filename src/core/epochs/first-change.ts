/**
 * Where a conversation's epochs first change a request, over every kind (kind-info.ts
 * `changesAt`): a correction epoch removes the thinking blocks from there on (docs/rescue.md,
 * "Preserved thinking"), a registered kind's changes counted as the built-ins' are.
 */
import type { BlockPosition } from '../thinking/list-thinking.js';
import type { TranscriptIndex } from '../transcript-index-types.js';
import { itemsOfKind, type FrozenItems } from './frozen-items.js';
import type { Epoch } from '../epoch-types.js';
import { epochKindInfos, itemsOfEpoch, type EpochKindInfo } from './kind-info.js';

/**
 * The first place the conversation's frozen items change a body of `index`, as the first position
 * a thinking block they invalidated may lie at; undefined when none of them is in the body.
 */
export function firstChangeOfItems(index: TranscriptIndex, items: FrozenItems): BlockPosition | undefined {
  return firstOf(epochKindInfos().flatMap((kind) => changesOf(kind, itemsOfKind(items, kind.tag), index)));
}

/**
 * The first place one epoch's items, of every kind, change a body of `index`: where the thinking
 * blocks its edit invalidates begin (core/thinking/freeze-in-plan.ts); undefined when none is in it.
 */
export function firstChangeOfEpoch(epoch: Epoch, index: TranscriptIndex): BlockPosition | undefined {
  return firstOf(epochKindInfos().flatMap((kind) => changesOf(kind, itemsOfEpoch(epoch, kind), index)));
}

function changesOf(kind: EpochKindInfo, items: readonly unknown[], index: TranscriptIndex): BlockPosition[] {
  const { changesAt } = kind;
  return changesAt === undefined ? [] : items.flatMap((item) => changesAt(item, index) ?? []);
}

function firstOf(positions: readonly BlockPosition[]): BlockPosition | undefined {
  let first: BlockPosition | undefined;
  for (const at of positions) {
    if (first === undefined || at.messageIndex < first.messageIndex || (at.messageIndex === first.messageIndex && at.blockIndex < first.blockIndex)) first = at;
  }
  return first;
}
