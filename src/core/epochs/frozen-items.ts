/**
 * What a conversation's epochs froze, in one map keyed by the epoch kind's tag
 * (core/epoch-types.ts `KindTag`): each kind's record (kind-info.ts) says how to read its items
 * from an epoch and their order, and a conversation holds them in one `FrozenItems`
 * (rescue/conversation-table.ts) instead of a field per kind. A registered kind's items are under
 * its tag too (docs/adding-a-kind.md).
 */
import { itemsOfEpoch } from './kind-record.js';
import type { ConversationRecord, EpochKind } from '../epoch-types.js';
import { epochKindInfos, type ItemsByKind } from './kind-info.js';

export type { ItemsByKind } from './kind-info.js';

/**
 * A conversation's frozen items, every kind's, each list in the order its kind applies them: the
 * built-ins' typed, a registered kind's under its tag (absent in a map made before it registered).
 */
export type FrozenItems = { readonly [K in EpochKind]: readonly ItemsByKind[K][] } & { readonly [tag: string]: readonly unknown[] | undefined };

/** No item of any kind. The same object each time, so an empty conversation compares equal to itself. */
export const NO_ITEMS: FrozenItems = { tool_results: [], span: [], thinking_only: [] };

/** Every kind's items of the record's epochs. */
export function frozenItemsOf(record: ConversationRecord): FrozenItems {
  const entries = epochKindInfos().map((kind) => {
    const items = record.epochs.flatMap((e) => itemsOfEpoch(e, kind));
    return [kind.tag, kind.order === undefined ? items : items.sort(kind.order)] as const;
  });
  return Object.fromEntries(entries) as unknown as FrozenItems;
}

/** The items of kind `tag` in `items`: none when the map holds none of it. */
export function itemsOfKind(items: FrozenItems, tag: string): readonly unknown[] {
  return items[tag] ?? [];
}

/** Whether any epoch froze anything: the one "does this conversation have epochs in force" question. */
export function hasFrozenItems(items: FrozenItems): boolean {
  return Object.values(items).some((list) => list !== undefined && list.length > 0);
}
