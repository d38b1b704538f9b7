/**
 * An epoch kind's readers' record (`EpochKindInfo`) and what its hooks name: the type each kind's
 * folder fills in (core/epochs/tool-results/, spans/, thinking-only/, a registered kind's own), and
 * the registry (kind-info.ts) keeps by tag.
 */
import type { Epoch, EpochMode, EpochTrigger, FrozenBlock, KindTag } from '../epoch-types.js';
import type { FrozenSpan } from '../shed/shed-types.js';
import type { FrozenThinking } from '../thinking/thinking-types.js';
import type { BlockPosition } from '../thinking/list-thinking.js';
import type { TranscriptIndex } from '../transcript-index-types.js';
import type { EpochFigures, FiguresAt } from './epoch-figures.js';

/**
 * The name a kind's originals are kept under (the store's `OriginalKind`): `elided`, `span`,
 * `thinking`, or a registered kind's own; in a state directory, the folder of that name or the
 * kind's `dirName` (`<state>/<folder>/`).
 */
export type OriginalFolder = string;
/** The extensions an original file may have. */
export type OriginalFileExt = 'txt' | 'json' | 'md';

/** What each built-in kind freezes, by its tag. A registered kind's items are its own type. */
export interface ItemsByKind {
  readonly tool_results: FrozenBlock;
  readonly span: FrozenSpan;
  readonly thinking_only: FrozenThinking;
}

/** One original an item names, in its kind's folder: `<sha256>.<ext>`, of `bytes` bytes when it says. */
export interface NamedOriginal {
  readonly sha256: string;
  readonly ext: OriginalFileExt;
  /** The size the file must have; absent: any (a rendering). */
  readonly bytes?: number;
}

/**
 * Where inflate puts one original back: the bytes [start, end) of the body become the bytes made
 * from `files` (each read from the kind's folder, checked against its sha256 and its size when it
 * says one): by `make`, given their exact bytes in order, or, without it, the first file's bytes.
 */
export interface InflateSite {
  readonly start: number;
  readonly end: number;
  readonly files: readonly NamedOriginal[];
  readonly make?: (files: readonly Uint8Array[]) => Uint8Array;
}

/** How `show` names one of a kind's exact files: its `kind` in `--json`, and its word in the list an ambiguous id prints. */
export interface ShownExt {
  readonly kind: string;
  readonly label: string;
}

/** The lists of a conversation's restore listing a kind's items may go in. */
export type ListedUnder = 'blocks' | 'spans' | 'originals';

/** What the restore listing knows of the file a handle names: its epoch's number, whether it is kept, whether `seal` sealed it. */
export interface ListedAt {
  readonly epoch: number;
  readonly present: boolean;
  readonly sealed: boolean;
}

/** One kind as the record, report, verify, restore and inflate code see it. */
// biome-ignore lint/suspicious/noExplicitAny: a registry holds kinds of any item type; each kind's hooks agree on its own
export interface EpochKindInfo<Item = any> {
  readonly tag: KindTag;
  /**
   * The `--mode` word for a built-in kind a conversation runs in, the `mode` its epochs carry in a
   * record (absent there means `rescue`); undefined for a kind that goes with either mode (a
   * correction) and for every registered kind.
   */
  readonly mode: EpochMode | undefined;
  /**
   * Report hook: what the reports count of the kind. `blocks`: tool results, summed in bytes and
   * tokens, with refaults; `spans`: whole messages, counted per epoch and never summed; `thinking`:
   * blocks removed, not counted as elided; `items`: a registered kind's items, counted.
   */
  readonly counts: 'blocks' | 'spans' | 'thinking' | 'items';
  /** Record hook: whether `ctxshed elide` (trigger `command`) may latch an epoch of the kind. */
  readonly byCommand: boolean;
  /** Verify, show, restore and store hook: the folder its originals are kept in. */
  readonly originals: OriginalFolder;
  /**
   * State hook: the state directory's folder for them when it is not named `originals` (the span
   * kind's `spans/`, whose records and stores name it `span`); absent: `originals`.
   */
  readonly dirName?: string;
  /**
   * Seal hook: `ctxshed seal` may move its originals' exact files to `sealed/`, where verify,
   * restore and inflate find them too (docs/rescue.md "Sealing"); absent: never sealed.
   */
  readonly sealable?: true;
  /**
   * Verify, show and restore hook: the readable rendering of one original's exact bytes, kept
   * beside them as `<sha256>.md`; absent when the exact bytes are what a reader is shown.
   */
  readonly render?: (bytes: Uint8Array, sha256: string) => string;
  /**
   * Restore hook: what `restore`, the restore route and the MCP tool give back by handle (the
   * sha256 of one of its files with extension `ext`, rendered by `render` when the kind has one),
   * and the name the tools print for it; absent: none (src/restore/restorable-kinds.ts).
   */
  readonly restorable?: {
    readonly name: string;
    readonly ext: OriginalFileExt;
    /**
     * Restore listing hook (src/restore/list-restorable.ts, docs/commands.md `spans`): the list of
     * a conversation's listing its items go in, and each one's entry, given what is known of the
     * file a handle names; absent: `originals`, one `RestorableOriginal` per file of `ext`.
     */
    readonly listed?: { readonly under: ListedUnder; readonly entryOf: (item: Item, at: ListedAt) => object };
  };
  /**
   * Show hook (`ctxshed show <sha256>`, src/cli/show-command.ts): the extensions of its exact files
   * `show` prints by sha256, each with its names there, and what `usedBy` says of an item that names
   * one (beside its conversation and epoch; undefined: the item does not name it). Absent: the
   * extension `restorable` gives back, else those its items name with a size, each named by the
   * kind's tag, and one use per epoch.
   */
  readonly shown?: {
    readonly exts: Partial<Record<OriginalFileExt, ShownExt>>;
    readonly usedBy: (item: Item, sha256: string, ext: OriginalFileExt) => object | undefined;
  };
  /**
   * Report hook: its part of an epoch's figures (epoch-figures.ts; the reports' and the metrics'),
   * from the epoch's items of the kind; absent: none (the reports count its items).
   */
  readonly figures?: (items: readonly Item[], at: FiguresAt) => Partial<EpochFigures>;
  /** Items hook: the order its items are kept in across epochs; absent: latch order. */
  readonly order?: (a: Item, b: Item) => number;
  /**
   * Verify hook: the extensions its folder holds (a name with any other is a stray file); absent:
   * `txt`, `json` and `md`.
   */
  readonly exts?: readonly OriginalFileExt[];
  /**
   * Verify hook: how a finding names one item of an epoch (`ordinal 3`, `span 1..6`); absent: the
   * kind's tag. `says`: what a size a file does not match is said by (`the block says`); absent: `item`.
   */
  readonly describe?: (item: Item) => string;
  readonly says?: string;
  /** Files hook: the originals one item names in `originals`, each durable before a record names it. */
  readonly filesOf: (item: Item) => readonly NamedOriginal[];
  /**
   * Record hook: a check of the kind's items across one record, made once per record and given each
   * epoch's list in epoch order (`at` names the epoch), that keeps what it needs of the lists before
   * (so that an item is taken once, spans follow one another): what is wrong, as strings. Absent:
   * any item passes.
   */
  readonly checkItems?: () => (items: readonly unknown[], at: string) => string[];
  /** Record hook: the trigger only the kind's epochs have, and always (a correction's `prefix_check`); absent: none. */
  readonly trigger?: EpochTrigger;
  /**
   * Record hook: the kind's items may go with an epoch of any kind, beside that kind's own (the
   * thinking blocks an epoch removes on a model that runs the prefix check); absent: only its own epochs'.
   */
  readonly alongside?: true;
  /**
   * Inflate hook: where in a body the kind's stubs of `items` (every record's) stand, each put back
   * as the bytes made from the originals it names; nothing else (text that only looks like a stub
   * is the client's own).
   */
  readonly inflate?: (body: Uint8Array, index: TranscriptIndex, items: readonly Item[]) => readonly InflateSite[];
  /**
   * Correction hook: the first place one item changes a body of `index`, as the first position a
   * thinking block it invalidated may lie at (after a stubbed block; a shed span's first message),
   * or undefined when the item is not in this body. A correction epoch removes every thinking
   * block from the earliest such place on (docs/rescue.md, "Preserved thinking"). Absent: the
   * kind changes no body a thinking block could follow (a kind that, as the test kind, touches no
   * message with thinking).
   */
  readonly changesAt?: (item: Item, index: TranscriptIndex) => BlockPosition | undefined;
}

/** A kind's items of one epoch: those under its tag in the epoch's `items` (none when it froze none of the kind). */
export function itemsOfEpoch<Item>(epoch: Epoch, kind: EpochKindInfo<Item>): readonly Item[] {
  return (epoch.items[kind.tag] ?? []) as readonly Item[];
}

/** The order of items kept by ordinal (tool results, thinking blocks). */
export const byOrdinal = (a: { readonly ordinal: number }, b: { readonly ordinal: number }): number => a.ordinal - b.ordinal;
