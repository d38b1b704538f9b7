/**
 * What the record, report, verify, show and restore code know of each epoch kind, looked up by the
 * kind's tag (core/epoch-types.ts `EpochKind`) instead of asked kind by kind (docs/adding-a-kind.md).
 * The engine's half of a kind is its `LatchKind` (src/rescue/latch-kind.ts); this half is in the
 * core so that src/state, src/store, src/report and src/restore reach it without src/rescue.
 *
 * `EpochMode` (`rescue | shed`) is the word `--mode` and a record's `mode` field use: it maps to a
 * kind once, by `kindOfMode`, and the code past that asks the kind's record.
 */
import type { EpochKind, EpochMode } from '../epoch-types.js';
import { renderSpanMarkdown } from '../shed/render-span-markdown.js';

/** Where a kind's originals are kept (the store's `OriginalKind`: `<state>/elided`, `spans`, `thinking`). */
export type OriginalFolder = 'elided' | 'span' | 'thinking';

/** One kind as the record, report and verify code see it. */
export interface EpochKindInfo {
  readonly tag: EpochKind;
  /**
   * The `--mode` word for a kind a conversation runs in, the `mode` its epochs carry in a record
   * (absent there means `rescue`); undefined for a kind that goes with either mode (a correction).
   */
  readonly mode: EpochMode | undefined;
  /**
   * Report hook: what the reports count of the kind. `blocks`: tool results, summed in bytes and
   * tokens, with refaults; `spans`: whole messages, counted per epoch and never summed; `thinking`:
   * blocks removed, not counted as elided.
   */
  readonly counts: 'blocks' | 'spans' | 'thinking';
  /** Record hook: whether `ctxshed elide` (trigger `command`) may latch an epoch of the kind. */
  readonly byCommand: boolean;
  /** Verify, show and restore hook: the folder its originals are kept in. */
  readonly originals: OriginalFolder;
  /**
   * Verify, show and restore hook: the readable rendering of one original's exact bytes, kept
   * beside them as `<sha256>.md`; absent when the exact bytes are what a reader is shown.
   */
  readonly render?: (bytes: Uint8Array, sha256: string) => string;
}

/** Every kind, by its tag. A new kind adds its line here (docs/adding-a-kind.md). */
export const EPOCH_KIND_INFO: { readonly [K in EpochKind]: EpochKindInfo & { readonly tag: K } } = {
  tool_results: { tag: 'tool_results', mode: 'rescue', counts: 'blocks', byCommand: true, originals: 'elided' },
  span: { tag: 'span', mode: 'shed', counts: 'spans', byCommand: false, originals: 'span', render: renderSpanMarkdown },
  thinking_only: { tag: 'thinking_only', mode: undefined, counts: 'thinking', byCommand: false, originals: 'thinking' },
};

/** Every kind's record, in the registry's order. */
export const EPOCH_KIND_INFOS: readonly EpochKindInfo[] = Object.values(EPOCH_KIND_INFO);

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

/** The kind whose originals are kept in `folder`, if any kind's are. */
export function kindOfOriginals(folder: string): EpochKindInfo | undefined {
  return EPOCH_KIND_INFOS.find((k) => k.originals === folder);
}

/** The readable rendering of an original kept in `folder`, when its kind has one. */
export function renderingOf(folder: string, bytes: Uint8Array, sha256: string): string | undefined {
  return kindOfOriginals(folder)?.render?.(bytes, sha256);
}
