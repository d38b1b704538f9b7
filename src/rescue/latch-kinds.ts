/**
 * The registry of epoch kinds the engine latches (latch-kind.ts): one line per kind. The
 * threshold latch and the overflow latch loop over it; a conversation latches the kind of its
 * first epoch, a new one the engine's `--mode`, and an API that cannot carry that kind the first
 * kind here that it can (shed mode on Chat Completions rescues tool results: docs/openai.md).
 * docs/adding-a-kind.md says what a new kind adds.
 */
import { type ApiDialect, type EpochMode, kindOfMode, registerEpochKind, shasFrozenBy } from '../core/index.js';
import type { ConversationEntry } from './conversation-table.js';
import type { LatchKind } from './latch-kind.js';
import { SPANS_KIND } from './kinds/spans/span-kind.js';
import { TOOL_RESULTS_KIND } from './kinds/tool-results/tool-results-kind.js';

/** Every kind, the default (the one every API carries) first. */
const KINDS: LatchKind[] = [];

/**
 * Registers a kind, both halves in one call (docs/adding-a-kind.md): its engine record first in
 * the registry, where it takes the conversations of its tag from a kind there before it, and its
 * readers' record (`kind.info`, core/epochs/kind-info.ts `registerEpochKind`) when it has one, a
 * kind with a new tag. Returns its removal (a test's kind is registered for the test alone).
 */
export function registerKind(kind: LatchKind): () => void {
  const unregisterInfo = kind.info === undefined ? () => undefined : registerEpochKind(kind.info);
  KINDS.unshift(kind);
  return () => {
    const at = KINDS.indexOf(kind);
    if (at >= 0) KINDS.splice(at, 1);
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
 * The kind a conversation latches: its first epoch's, else the one the engine's `--mode` names; an API that cannot
 * carry it gets the first kind that it can.
 */
export function kindFor(entry: ConversationEntry, mode: EpochMode | undefined, api: ApiDialect): LatchKind {
  // The `--mode` word becomes a kind here, once (core/epochs/kind-info.ts); past this, the tag.
  // A registered kind that opens the mode's new conversations comes before the word's built-in one.
  const opens = entry.kind === undefined ? KINDS.find((k) => k.opensMode === (mode ?? 'rescue')) : undefined;
  const wanted = entry.kind ?? opens?.tag ?? kindOfMode(mode).tag;
  const kind = KINDS.find((k) => k.tag === wanted);
  if (kind?.carries(api) === true) return kind;
  return KINDS.find((k) => k.carries(api)) ?? TOOL_RESULTS_KIND;
}

/** What the conversation's latest epoch froze, of every kind (`shasFrozenBy`): the working set keeps their read-backs. */
export function latestFrozen(entry: ConversationEntry): string[] {
  const latest = entry.record?.epochs.at(-1);
  return latest === undefined ? [] : shasFrozenBy(latest);
}
