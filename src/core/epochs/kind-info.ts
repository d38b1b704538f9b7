/**
 * What the record, report, verify, show, restore and inflate code know of each epoch kind, looked
 * up by the kind's tag (core/epoch-types.ts `KindTag`) in one registry instead of asked kind by
 * kind (docs/adding-a-kind.md). The engine's half of a kind is its `LatchKind`
 * (src/rescue/latch-kind.ts); this half is in the core so that src/state, src/store, src/report
 * and src/restore reach it without src/rescue.
 *
 * The built-in kinds keep the record fields they always had (`blocks`, `span`, `thinking`); a kind
 * registered by `registerEpochKind` keeps its items under its tag in the epoch's one generic field,
 * `items` (core/epoch-types.ts `ItemsEpoch`), and its originals in a folder of its own.
 *
 * `EpochMode` (`rescue | shed`) is the word `--mode` and a record's `mode` field use: it maps to a
 * built-in kind once, by `kindOfMode`, and the code past that asks the kind's record.
 */
import type { Epoch, EpochKind, EpochMode, FrozenBlock, KindTag } from '../epoch-types.js';
import type { FrozenSpan } from '../shed-types.js';
import { renderSpanMarkdown } from '../shed/render-span-markdown.js';
import type { FrozenThinking } from '../thinking-types.js';
import type { BlockPosition } from '../thinking/list-thinking.js';
import type { TranscriptIndex } from '../transcript-index-types.js';

/**
 * Where a kind's originals are kept (the store's `OriginalKind`): `elided`, `span` (the state's
 * `spans/`), `thinking`, or a registered kind's own folder (`<state>/<folder>/`).
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

/** Where inflate puts one original back: the bytes [start, end) of the body become the file's exact bytes. */
export interface InflateSite {
  readonly start: number;
  readonly end: number;
  readonly sha256: string;
  readonly ext: OriginalFileExt;
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
   * Verify, show and restore hook: the readable rendering of one original's exact bytes, kept
   * beside them as `<sha256>.md`; absent when the exact bytes are what a reader is shown.
   */
  readonly render?: (bytes: Uint8Array, sha256: string) => string;
  /**
   * Restore hook, registered kinds: what `restore` and the restore route give back by handle (the
   * sha256 of one of its files with extension `ext`), and the name the tools print for it; absent:
   * none. The built-in kinds' are src/restore/restorable-kinds.ts's.
   */
  readonly restorable?: { readonly name: string; readonly ext: OriginalFileExt };
  /** Items hook: the kind's items of one epoch (a registered kind's: `epoch.items[tag]`). */
  readonly itemsOf: (epoch: Epoch) => readonly Item[];
  /** Items hook: the order its items are kept in across epochs; absent: latch order. */
  readonly order?: (a: Item, b: Item) => number;
  /** Files hook: the originals one item names in `originals`, each durable before a record names it. */
  readonly filesOf: (item: Item) => readonly NamedOriginal[];
  /** Record hook, registered kinds: what is wrong with one item as read from a record (`at` names it). */
  readonly checkItem?: (item: unknown, at: string) => string[];
  /**
   * Inflate hook, registered kinds: where in a body the kind's stubs of `items` (every record's)
   * stand, each put back as the original file it names; nothing else (text that only looks like a
   * stub is the client's own).
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

const byOrdinal = (a: { readonly ordinal: number }, b: { readonly ordinal: number }): number => a.ordinal - b.ordinal;

/** The built-in kinds, by their tag. A new kind registers instead (`registerEpochKind`). */
export const EPOCH_KIND_INFO: { readonly [K in EpochKind]: EpochKindInfo<ItemsByKind[K]> & { readonly tag: K } } = {
  tool_results: {
    tag: 'tool_results',
    mode: 'rescue',
    counts: 'blocks',
    byCommand: true,
    originals: 'elided',
    itemsOf: (e) => e.blocks,
    order: byOrdinal,
    filesOf: (b) => [{ sha256: b.sha256, ext: 'txt', bytes: b.bytes }, ...(b.rawSha256 === undefined ? [] : [{ sha256: b.rawSha256, ext: 'json' as const }])],
    // Just after the stubbed tool_result, when the block at its ordinal is still the same call's.
    changesAt: (b, index) => {
      const at = index.toolResults[b.ordinal];
      return at !== undefined && at.toolUseId === b.toolUseId ? { messageIndex: at.messageIndex, blockIndex: at.blockIndex + 1 } : undefined;
    },
  },
  span: {
    tag: 'span',
    mode: 'shed',
    counts: 'spans',
    byCommand: false,
    originals: 'span',
    render: renderSpanMarkdown,
    itemsOf: (e) => (e.span === undefined ? [] : [e.span]),
    filesOf: (s) => [
      { sha256: s.sha256, ext: 'json', bytes: s.bytes },
      { sha256: s.sha256, ext: 'md' },
    ],
    // The span's first message: its blocks go with the span's bytes.
    changesAt: (s, index) => (s.first < index.messages.length ? { messageIndex: s.first, blockIndex: 0 } : undefined),
  },
  // A thinking block goes with any epoch on a prefix-check model, not only a correction's.
  thinking_only: {
    tag: 'thinking_only',
    mode: undefined,
    counts: 'thinking',
    byCommand: false,
    originals: 'thinking',
    itemsOf: (e) => e.thinking ?? [],
    order: byOrdinal,
    filesOf: (t) => [{ sha256: t.sha256, ext: 'json', bytes: t.jsonBytes }],
    changesAt: (t, index) => (t.messageIndex < index.messages.length ? { messageIndex: t.messageIndex, blockIndex: t.blockIndex + 1 } : undefined),
  },
};

/** The built-in kinds' records. */
export const EPOCH_KIND_INFOS: readonly EpochKindInfo[] = Object.values(EPOCH_KIND_INFO);

/** The registry: every kind by its tag, built-ins first, then the registered in their order. */
const REGISTRY = new Map<string, EpochKindInfo>(EPOCH_KIND_INFOS.map((k) => [k.tag, k]));

/** A tag's and a registered folder's shape: lowercase letters, digits and `_`, a letter first. */
export const KIND_NAME = /^[a-z][a-z0-9_]*$/;

/**
 * The names a state directory uses already (src/state/layout.ts): no registered kind's folder may
 * be one of them, so its originals never mix with another's files.
 */
const TAKEN_FOLDERS: readonly string[] = ['conversations', 'elided', 'span', 'spans', 'thinking', 'sealed', 'owners', 'previews', 'proxies'];

/** The registered kind's generic items of an epoch: `epoch.items[tag]`, or none. */
export function itemsUnder(tag: string): (epoch: Epoch) => readonly unknown[] {
  return (epoch) => epoch.items?.[tag] ?? [];
}

/**
 * Registers a kind by its record (docs/adding-a-kind.md); returns its removal, for a test. Throws
 * for a tag or folder that is not `KIND_NAME`, a tag registered already, or a folder another kind
 * or the state directory uses. A registered kind has no `--mode` word, and its items are read from
 * `items[tag]` unless its `itemsOf` says otherwise.
 */
export function registerEpochKind(info: EpochKindInfo): () => void {
  const { tag, originals } = info;
  if (!KIND_NAME.test(tag)) throw new Error(`an epoch kind's tag is lowercase letters, digits and _, got ${JSON.stringify(tag)}`);
  if (!KIND_NAME.test(originals)) throw new Error(`an epoch kind's folder is lowercase letters, digits and _, got ${JSON.stringify(originals)}`);
  if (REGISTRY.has(tag)) throw new Error(`an epoch kind ${tag} is registered already`);
  if (TAKEN_FOLDERS.includes(originals) || kindOfOriginals(originals) !== undefined) throw new Error(`the folder ${originals} is taken`);
  if (info.mode !== undefined) throw new Error(`a registered epoch kind has no --mode word (${tag} says ${info.mode})`);
  REGISTRY.set(tag, info);
  return () => {
    if (REGISTRY.get(tag) === info) REGISTRY.delete(tag);
  };
}

/** Every kind's record, built-ins first. */
export function epochKindInfos(): readonly EpochKindInfo[] {
  return [...REGISTRY.values()];
}

/** The kind registered under `tag`, if any. */
export function epochKindInfo(tag: string): EpochKindInfo | undefined {
  return REGISTRY.get(tag);
}

/** The registered kinds (not the built-ins): those whose items are in an epoch's `items`. */
export function registeredKinds(): readonly EpochKindInfo[] {
  return epochKindInfos().filter((k) => !Object.hasOwn(EPOCH_KIND_INFO, k.tag));
}

/**
 * The kind a `--mode` word or a record's `mode` field names: the one place the two words meet.
 * Absent (a record written before modes, or no `--mode`) is `rescue`, the tool-result kind.
 */
export function kindOfMode(mode: EpochMode | undefined): EpochKindInfo {
  const wanted = mode ?? 'rescue';
  const found = EPOCH_KIND_INFOS.find((k) => k.mode === wanted);
  if (found === undefined) throw new Error(`no epoch kind runs in mode ${String(mode)}`);
  return found;
}

/**
 * The kind a conversation runs, from its first epoch: a registered kind's by its `items`, else the
 * one its `mode` names (a correction epoch carries its conversation's mode).
 */
export function kindOfFirstEpoch(first: Epoch): EpochKindInfo {
  const tag = first.items === undefined ? undefined : Object.keys(first.items)[0];
  return (tag === undefined ? undefined : epochKindInfo(tag)) ?? kindOfMode(first.mode);
}

/** The kind whose originals are kept in `folder`, if any kind's are. */
export function kindOfOriginals(folder: string): EpochKindInfo | undefined {
  return epochKindInfos().find((k) => k.originals === folder);
}

/** The readable rendering of an original kept in `folder`, when its kind has one. */
export function renderingOf(folder: string, bytes: Uint8Array, sha256: string): string | undefined {
  return kindOfOriginals(folder)?.render?.(bytes, sha256);
}

/** `folder:sha256.ext` of every original the epochs name, with the size it must have (undefined: any). */
export function originalsNamedBy(epochs: readonly Epoch[]): Map<string, number | undefined> {
  const wanted = new Map<string, number | undefined>();
  for (const kind of epochKindInfos()) {
    for (const item of epochs.flatMap((e) => kind.itemsOf(e))) {
      for (const file of kind.filesOf(item)) wanted.set(`${kind.originals}:${file.sha256}.${file.ext}`, file.bytes);
    }
  }
  return wanted;
}
