/**
 * The check of a splice kind's output (splice-applier.ts; docs/design.md invariant 6): the output
 * is re-indexed from its bytes by the body's own API and must have every message of the input,
 * the bytes outside `messages` unchanged, and each message its input bytes with exactly the
 * splices inside it applied, the kind's and the thinking removals; a splice between messages
 * fails it. Each thinking block stays byte for byte but for the ones judged removed, which are gone.
 */
import type { ApiDialect } from '../dialects/dialect.js';
import { MESSAGES_API } from '../dialects/messages.js';
import { bytesEqual } from '../block-text.js';
import { applySplicesWithin, planSplices, type Splice } from '../splices.js';
import { isThinkingType, listThinking } from '../thinking/list-thinking.js';
import type { JudgedThinking } from '../thinking/remove-thinking.js';
import type { TranscriptIndex } from '../transcript-index-types.js';
import { checkOutsideMessages } from './check-outside.js';

/** The output's index when the output passes (a kind's own check reads it), else what failed. */
export type SplicedCheck = { readonly ok: true; readonly after: TranscriptIndex } | { readonly ok: false; readonly failure: string };

/** Checks `output`, made from `input` by the kind's `splices` and `thinking`'s removals; `api` indexes it (Messages by default). */
export function checkSpliced(
  input: Uint8Array,
  before: TranscriptIndex,
  output: Uint8Array,
  splices: readonly Splice[],
  thinking: JudgedThinking,
  api: ApiDialect = MESSAGES_API,
): SplicedCheck {
  const indexed = api.index(output);
  if (indexed.kind !== 'indexed') return { ok: false, failure: `output does not index: ${indexed.reason}: ${indexed.detail}` };
  const after = indexed.index;
  const failure =
    checkOutsideMessages(input, before, output, after) ??
    checkMessages(input, before, output, after, [...splices, ...thinking.splices.map((t) => t.splice)]) ??
    checkThinking(input, before, output, after, thinking.removed);
  return failure === undefined ? { ok: true, after } : { ok: false, failure };
}

/** Every message there, each its input bytes with the splices inside it applied; no splice outside one. */
function checkMessages(input: Uint8Array, before: TranscriptIndex, output: Uint8Array, after: TranscriptIndex, splices: readonly Splice[]): string | undefined {
  if (after.messages.length !== before.messages.length) return `output has ${after.messages.length} messages, not ${before.messages.length}`;
  const sorted = planSplices(splices, input.length);
  if (sorted === undefined) return 'the splices overlap';
  let s = 0;
  for (const [m, was] of before.messages.entries()) {
    const inside: Splice[] = [];
    for (; s < sorted.length && sorted[s]!.end <= was.end; s++) {
      if (sorted[s]!.start < was.start) return `a splice at byte ${sorted[s]!.start} lies outside every message`;
      inside.push(sorted[s]!);
    }
    const now = after.messages[m]!;
    const expected = applySplicesWithin(input, was.start, was.end, inside);
    if (expected === undefined || !bytesEqual(output.subarray(now.start, now.end), expected)) return `message ${m} is not its input bytes with its splices`;
    if (now.content.kind === 'array' && now.blocks.length === 0 && was.blocks.length > 0) return `message ${m} lost all its content`;
  }
  return s === sorted.length ? undefined : `a splice at byte ${sorted[s]!.start} lies outside every message`;
}

/**
 * The output's thinking blocks are the input's, in order and byte for byte, less exactly the ones
 * judged removed (`removed`: per message, their block positions), each of which was a thinking block.
 */
function checkThinking(
  input: Uint8Array,
  before: TranscriptIndex,
  output: Uint8Array,
  after: TranscriptIndex,
  removed: ReadonlyMap<number, ReadonlySet<number>>,
): string | undefined {
  for (const [m, gone] of removed) {
    for (const k of gone) if (!isThinkingType(before.messages[m]?.blocks[k]?.type ?? '')) return `message ${m} block ${k}, removed, is not a thinking block`;
  }
  const kept = listThinking(before).filter((t) => removed.get(t.messageIndex)?.has(t.blockIndex) !== true);
  const left = listThinking(after);
  if (left.length !== kept.length) return `output has ${left.length} thinking blocks, not ${kept.length}`;
  for (const [i, was] of kept.entries()) {
    const now = left[i]!;
    if (now.messageIndex !== was.messageIndex || !bytesEqual(output.subarray(now.block.start, now.block.end), input.subarray(was.block.start, was.block.end))) {
      return `thinking block ${was.ordinal} (message ${was.messageIndex} block ${was.blockIndex}) is not its input bytes`;
    }
  }
  return undefined;
}
