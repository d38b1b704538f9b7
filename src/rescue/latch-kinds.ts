/**
 * The registry of epoch kinds the engine latches (latch-kind.ts): one line per kind. The
 * threshold latch and the overflow latch loop over it; a conversation latches the kind of its
 * first epoch, a new one the kind whose mode row (`LatchKind.mode`) has the engine's `--mode` word, and an API that cannot carry that kind the first
 * kind here that it can (shed mode on Chat Completions rescues tool results: docs/openai.md).
 * docs/adding-a-kind.md says what a new kind adds.
 */
import { type ApiDialect, type EpochKindInfo, epochKindInfo, registerEpochKind, shasFrozenBy } from '../core/index.js';
import type { ConversationEntry } from './conversation-table.js';
import type { ModeWord } from './kind-mode.js';
import type { LatchKind } from './latch-kind.js';
import { DEFAULT_MODE, registerMode } from './mode-defaults.js';
import { SPANS_KIND } from './kinds/spans/span-kind.js';
import { TOOL_RESULTS_KIND } from './kinds/tool-results/tool-results-kind.js';

/** Every kind, the default (the one every API carries) first. */
const KINDS: LatchKind[] = [];

/**
 * Registers a kind, both halves in one call (docs/adding-a-kind.md): its engine record first in
 * the registry, where it takes the conversations of its tag, and the new conversations of its
 * mode word, from a kind there before it; its mode row (`kind.mode`, mode-defaults.ts
 * `registerMode`) when it has one; and its readers' record (`kind.info`, core/epochs/kind-info.ts
 * `registerEpochKind`) when it has one, a kind with a new tag. Returns its removal (a test's kind
 * is registered for the test alone).
 */
export function registerKind(kind: LatchKind): () => void {
  const unregisterInfo = kind.info === undefined ? () => undefined : registerEpochKind(kind.info);
  let unregisterMode: () => void;
  try {
    unregisterMode = kind.mode === undefined ? () => undefined : registerMode(kind.mode);
  } catch (error) {
    unregisterInfo();
    throw error;
  }
  KINDS.unshift(kind);
  return () => {
    const at = KINDS.indexOf(kind);
    if (at >= 0) KINDS.splice(at, 1);
    unregisterMode();
    unregisterInfo();
  };
}

// The built-in lines: registered last first, so the default (the one every API carries) leads.
registerKind(SPANS_KIND);
registerKind(TOOL_RESULTS_KIND);

/** The kinds in the registry, in order. */
export function latchKinds(): readonly LatchKind[] {
  return KINDS;
}

/**
 * The kind whose mode row has `word` (absent: the default mode's), the latest registered first;
 * undefined for a word no kind registered (the CLI refused it already: mode-defaults.ts `lookUpMode`).
 */
export function kindOfModeWord(word: ModeWord | undefined): LatchKind | undefined {
  const wanted = word ?? DEFAULT_MODE;
  return KINDS.find((k) => k.mode?.word === wanted);
}

/** The readers' record of the kind `word` opens (its `counts`, its record `mode`), for the demo and the banner. */
export function infoOfModeWord(word: ModeWord | undefined): EpochKindInfo | undefined {
  const kind = kindOfModeWord(word);
  return kind === undefined ? undefined : (kind.info ?? epochKindInfo(kind.tag));
}

/**
 * The kind a conversation latches: its first epoch's, else the one whose mode row has the
 * engine's `--mode` word; the first kind of that tag in the registry; an API that cannot carry it
 * gets the first kind that it can.
 */
export function kindFor(entry: ConversationEntry, mode: ModeWord | undefined, api: ApiDialect): LatchKind {
  // The `--mode` word becomes a kind here, once; past this, the tag. A kind registered later with
  // the tag of the word's kind (a test's) takes its conversations, as it takes the tag's.
  const wanted = entry.kind ?? kindOfModeWord(mode)?.tag;
  const kind = KINDS.find((k) => k.tag === wanted);
  if (kind?.carries(api) === true) return kind;
  return KINDS.find((k) => k.carries(api)) ?? TOOL_RESULTS_KIND;
}

/** What the conversation's latest epoch froze, of every kind (`shasFrozenBy`): the working set keeps their read-backs. */
export function latestFrozen(entry: ConversationEntry): string[] {
  const latest = entry.record?.epochs.at(-1);
  return latest === undefined ? [] : shasFrozenBy(latest);
}
