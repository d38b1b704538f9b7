/**
 * The answers that go together (docs/shed.md, "A text is carried once"): a repeat sent as a
 * pointer and the earlier copies it points to. An epoch takes all of a group or none of it, so a
 * pointer never points at text an epoch took out (core/repeats/). Read from the client's body and
 * what the conversation froze, once per ask, as the working set is.
 */
import { isResultIn } from '../block-key.js';
import { encodeJsonString } from '../json-string.js';
import { findRepeats } from '../repeats/find-repeats.js';
import { renderRepeatPointer, type RepeatPointer } from '../repeats/repeat-pointer.js';
import type { TranscriptIndex } from '../transcript-index-types.js';
import type { FrozenItems } from './frozen-items.js';
import { frozenShas, type CallReader } from './working-set.js';

/** One group: the first and last message its answers lie in, and their tool_result ordinals. */
export interface RepeatGroup {
  readonly from: number;
  readonly to: number;
  readonly ordinals: readonly number[];
  /** The bytes of the repeat's content value, and the pointer that takes its place less its file's name (`pointerBytes`). */
  readonly valueBytes: number;
  readonly pointer: RepeatPointer;
}

const ENCODER = new TextEncoder();
/** A sha256's place in a pointer: only its length counts here. */
const ANY_SHA = '0'.repeat(64);

/** What the groups are read from (an EpochAsk or an OverflowAsk). */
export interface RepeatGroupsAsk {
  readonly body: Uint8Array;
  readonly index: TranscriptIndex;
  readonly items: FrozenItems;
  readonly readCalls?: CallReader;
}

const ASKED = new WeakMap<RepeatGroupsAsk, readonly RepeatGroup[]>();

/** The groups of an ask's body, read once per ask. None when nothing was brought back twice. Never throws (findRepeats does not). */
export function repeatGroupsOfAsk(ask: RepeatGroupsAsk): readonly RepeatGroup[] {
  let groups = ASKED.get(ask);
  if (groups === undefined) {
    groups = findRepeats(ask.body, ask.index, frozenShas(ask.items), ask.readCalls).map(({ later, earlier }) => {
      const members = [later, ...earlier];
      const messages = members.map((c) => c.messageIndex);
      const value = ask.index.toolResults[later.ordinal]!.content;
      const pointer = { lead: later.lead, bytes: value.end - value.start, sha256: ANY_SHA, earlier: earlier.map((c) => c.toolUseId) };
      return { from: Math.min(...messages), to: Math.max(...messages), ordinals: members.map((c) => c.ordinal), valueBytes: value.end - value.start, pointer };
    });
    ASKED.set(ask, groups);
  }
  return groups;
}

/** `plan` less every block of a group that `plan` holds only part of: an epoch takes a group whole or not at all. */
export function wholeGroups<B extends { readonly ordinal: number; readonly part?: string | undefined }>(
  plan: readonly B[],
  groups: readonly RepeatGroup[],
): readonly B[] {
  if (groups.length === 0) return plan;
  // A group is of tool results; a part of the deeper cut counts its ordinals apart, and is never in one.
  const inPlan = new Set(plan.filter((b) => b.part === undefined).map((b) => b.ordinal));
  const split = new Set<number>();
  for (const g of groups) {
    const taken = g.ordinals.filter((o) => inPlan.has(o)).length;
    if (taken > 0 && taken < g.ordinals.length) for (const o of g.ordinals) split.add(o);
  }
  return split.size === 0 ? plan : plan.filter((b) => !isResultIn(b, split));
}

/**
 * The bytes the groups' pointers save the request as it will be sent (request-tokens.ts weighs
 * the request with them), leaving out a group whose answers an epoch took already (`taken`). The
 * pointers name `elidedDir`; a value kept as raw JSON too makes its pointer some 80 bytes longer.
 */
export function repeatSavings(groups: readonly RepeatGroup[], taken: (group: RepeatGroup) => boolean, elidedDir: string): number {
  let bytes = 0;
  for (const g of groups) {
    if (taken(g)) continue;
    const pointer = encodeJsonString(ENCODER.encode(renderRepeatPointer(g.pointer, elidedDir))).length;
    bytes += Math.max(0, g.valueBytes - pointer);
  }
  return bytes;
}
