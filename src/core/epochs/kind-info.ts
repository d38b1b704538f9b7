/**
 * What the record, report, verify, show, restore and inflate code know of each epoch kind, looked
 * up by the kind's tag (core/epoch-types.ts `KindTag`) in one registry instead of asked kind by
 * kind (docs/adding-a-kind.md). The engine's half of a kind is its `LatchKind`
 * (src/rescue/latch-kind.ts); this half is in the core so that src/state, src/store, src/report
 * and src/restore reach it without src/rescue.
 *
 * Every kind, built-in or registered by `registerEpochKind`, keeps its items under its tag in the
 * epoch's `items` (core/epoch-types.ts `Epoch`, read by `itemsOfEpoch`), and its originals in a
 * folder of its own.
 *
 * `EpochMode` (`rescue | shed`) is the word the reports show for a conversation's kind: a built-in
 * kind's `mode`. The `--mode` words are the engine's kinds' mode rows (src/rescue/mode-defaults.ts),
 * a built-in's the same word.
 */
import type { Epoch, EpochKind, EpochMode } from '../epoch-types.js';
import { addStoredFolder } from '../stored-files.js';
import { addFigures, NO_FIGURES, type EpochFigures, type FiguresAt } from './epoch-figures.js';
import { type EpochKindInfo, type ItemsByKind, itemsOfEpoch } from './kind-record.js';
import { SPAN_INFO } from './spans/info.js';
import { THINKING_ONLY_INFO } from './thinking-only/info.js';
import { TOOL_RESULTS_INFO } from './tool-results/info.js';

export { itemsOfEpoch } from './kind-record.js';
export { blocksOf, frozenThinkingOf, spanOf } from '../epoch-items.js';
export type {
  EpochKindInfo,
  InflateSite,
  ItemsByKind,
  ListedAt,
  ListedUnder,
  NamedOriginal,
  OriginalFileExt,
  OriginalFolder,
  ShownExt,
} from './kind-record.js';
export type { RestorableBlock } from './tool-results/listed.js';
export type { RestorableSpan } from './spans/listed.js';
export type { SpanSummary } from './spans/figures.js';
export type { EpochFigures, FiguresAt } from './epoch-figures.js';

/** The built-in kinds, by their tag, each its folder's record. A new kind registers instead (`registerEpochKind`). */
export const EPOCH_KIND_INFO: { readonly [K in EpochKind]: EpochKindInfo<ItemsByKind[K]> & { readonly tag: K } } = {
  tool_results: TOOL_RESULTS_INFO,
  span: SPAN_INFO,
  thinking_only: THINKING_ONLY_INFO,
};

/** The built-in kinds' records. */
export const EPOCH_KIND_INFOS: readonly EpochKindInfo[] = Object.values(EPOCH_KIND_INFO);

/** The registry: every kind by its tag, built-ins first, then the registered in their order. */
const REGISTRY = new Map<string, EpochKindInfo>(EPOCH_KIND_INFOS.map((k) => [k.tag, k]));

/**
 * Makes a Read or print of one of the kind's originals that it gives back a read-back (core/stored-files.ts):
 * its folder on disk, the extension `restore` gives, and `md` when it renders them; returns its removal.
 */
function addReadBacks(kind: EpochKindInfo): () => void {
  const { restorable } = kind;
  if (restorable === undefined) return () => undefined;
  return addStoredFolder(kind.dirName ?? kind.originals, [restorable.ext, ...(kind.render === undefined ? [] : ['md'])]);
}
for (const kind of EPOCH_KIND_INFOS) addReadBacks(kind);

/** A tag's and a registered folder's shape: lowercase letters, digits and `_`, a letter first. */
export const KIND_NAME = /^[a-z][a-z0-9_]*$/;

/**
 * The names a state directory uses already (src/state/layout.ts): no registered kind's folder may
 * be one of them, so its originals never mix with another's files.
 */
const TAKEN_FOLDERS: readonly string[] = ['conversations', 'elided', 'span', 'spans', 'thinking', 'sealed', 'owners', 'previews', 'proxies', 'readings'];

/**
 * Registers a kind by its record (docs/adding-a-kind.md); returns its removal, for a test. Throws
 * for a tag or folder that is not `KIND_NAME`, a tag registered already, or a folder another kind
 * or the state directory uses. A registered kind has no report `mode` (its `--mode` word is its
 * engine record's mode row, src/rescue/kind-mode.ts); its epochs are named by their `kind`.
 */
export function registerEpochKind(info: EpochKindInfo): () => void {
  const { tag, originals, dirName } = info;
  if (!KIND_NAME.test(tag)) throw new Error(`an epoch kind's tag is lowercase letters, digits and _, got ${JSON.stringify(tag)}`);
  const folders = [...new Set([originals, dirName ?? originals])];
  for (const name of folders)
    if (!KIND_NAME.test(name)) throw new Error(`an epoch kind's folder is lowercase letters, digits and _, got ${JSON.stringify(name)}`);
  if (REGISTRY.has(tag)) throw new Error(`an epoch kind ${tag} is registered already`);
  const taken = new Set([...TAKEN_FOLDERS, ...epochKindInfos().flatMap((k) => [k.originals, k.dirName ?? k.originals])]);
  for (const name of folders) if (taken.has(name)) throw new Error(`the folder ${name} is taken`);
  if (info.mode !== undefined)
    throw new Error(`a registered epoch kind has no report mode (${tag} says ${info.mode}); its --mode word is its LatchKind's mode row`);
  REGISTRY.set(tag, info);
  const removeReadBacks = addReadBacks(info);
  return () => {
    if (REGISTRY.get(tag) !== info) return;
    REGISTRY.delete(tag);
    removeReadBacks();
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

/** The kind the reports read a kind without a mode of its own as (a registered kind's): the tool-result kind. */
const UNMARKED: EpochKindInfo = EPOCH_KIND_INFO.tool_results;

/** The built-in kind whose report word is `mode` (the `--mode` words are the engine's: src/rescue/mode-defaults.ts). */
export function kindOfMode(mode: EpochMode): EpochKindInfo {
  const found = EPOCH_KIND_INFOS.find((k) => k.mode === mode);
  if (found === undefined) throw new Error(`no epoch kind runs in mode ${String(mode)}`);
  return found;
}

/** The record of an epoch's kind; a tag no kind is registered under reads as the tool-result kind's. */
export function kindOfEpoch(epoch: Epoch): EpochKindInfo {
  return epochKindInfo(epoch.kind) ?? UNMARKED;
}

/**
 * The kind a conversation runs: its first epoch's whose kind is not one that goes with any epoch
 * (`alongside`: a correction only removes thinking blocks, in a conversation of any kind), or the
 * tool-result kind's.
 */
export function kindOfConversation(epochs: readonly Epoch[]): EpochKindInfo {
  const first = epochs.find((e) => kindOfEpoch(e).alongside !== true);
  return first === undefined ? UNMARKED : kindOfEpoch(first);
}

/** The mode word the reports show for a conversation: its kind's, or `rescue` for a kind without one. */
export function modeOfConversation(epochs: readonly Epoch[]): EpochMode {
  return kindOfConversation(epochs).mode ?? UNMARKED.mode!;
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
    for (const item of epochs.flatMap((e) => itemsOfEpoch(e, kind))) {
      for (const file of kind.filesOf(item)) wanted.set(`${kind.originals}:${file.sha256}.${file.ext}`, file.bytes);
    }
  }
  return wanted;
}

/** An epoch's figures as the reports count them: every kind's part (its `figures` hook) added up. */
export function figuresOfEpoch(at: FiguresAt): EpochFigures {
  let figures = NO_FIGURES;
  for (const kind of epochKindInfos()) {
    const items = itemsOfEpoch(at.epoch, kind);
    if (kind.figures !== undefined && items.length > 0) figures = addFigures(figures, kind.figures(items, at));
  }
  return figures;
}
