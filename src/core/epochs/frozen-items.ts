/**
 * What a conversation's epochs froze, in one map keyed by the epoch kind's tag
 * (core/epoch-types.ts `EpochKind`): each kind says how to read its items from an epoch, and a
 * conversation holds them in one `FrozenItems` (rescue/conversation-table.ts) instead of a field
 * per kind. A new kind adds its line to `ITEM_READERS` (docs/adding-a-kind.md).
 */
import type { ConversationRecord, Epoch, EpochKind, FrozenBlock } from '../epoch-types.js';
import type { FrozenSpan } from '../shed-types.js';
import type { FrozenThinking } from '../thinking-types.js';

/** What each kind freezes, by its tag. */
export interface ItemsByKind {
  readonly tool_results: FrozenBlock;
  readonly span: FrozenSpan;
  readonly thinking_only: FrozenThinking;
}

/** A conversation's frozen items, every kind's, each list in the order its kind applies them. */
export type FrozenItems = { readonly [K in EpochKind]: readonly ItemsByKind[K][] };

/** How a kind reads its items from one epoch, and the order it keeps them in across epochs. */
interface ItemReader<K extends EpochKind> {
  readonly of: (epoch: Epoch) => readonly ItemsByKind[K][];
  /** Absent: latch order. */
  readonly order?: (a: ItemsByKind[K], b: ItemsByKind[K]) => number;
}

const byOrdinal = (a: { readonly ordinal: number }, b: { readonly ordinal: number }): number => a.ordinal - b.ordinal;

/** Each kind's reader. A thinking block goes with any epoch on a prefix-check model, not only a correction's. */
const ITEM_READERS: { readonly [K in EpochKind]: ItemReader<K> } = {
  tool_results: { of: (e) => e.blocks, order: byOrdinal },
  span: { of: (e) => (e.span === undefined ? [] : [e.span]) },
  thinking_only: { of: (e) => e.thinking ?? [], order: byOrdinal },
};

/** No item of any kind. The same object each time, so an empty conversation compares equal to itself. */
export const NO_ITEMS: FrozenItems = { tool_results: [], span: [], thinking_only: [] };

/** Every kind's items of the record's epochs. */
export function frozenItemsOf(record: ConversationRecord): FrozenItems {
  const read = <K extends EpochKind>(kind: K): readonly ItemsByKind[K][] => {
    const reader = ITEM_READERS[kind] as ItemReader<K>;
    const items = record.epochs.flatMap((e) => reader.of(e));
    return reader.order === undefined ? items : items.sort(reader.order);
  };
  const kinds = Object.keys(ITEM_READERS) as EpochKind[];
  return Object.fromEntries(kinds.map((kind) => [kind, read(kind)])) as unknown as FrozenItems;
}

/** Whether any epoch froze anything: the one "does this conversation have epochs in force" question. */
export function hasFrozenItems(items: FrozenItems): boolean {
  return Object.values(items).some((list) => list.length > 0);
}
