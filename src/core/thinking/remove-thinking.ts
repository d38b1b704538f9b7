/**
 * The removal of frozen thinking blocks from a request, as splices (plan, then apply). Each
 * block is found by its ordinal among the body's thinking blocks and must be where and what the
 * epoch froze; a run of removed blocks goes with one comma beside it, so the array stays valid
 * JSON. Pure; shared by the rewrite (rescue) and the shed splice.
 */
import type { Sha256 } from '../ports.js';
import type { Splice } from '../splices.js';
import type { TranscriptIndex } from '../transcript-index-types.js';
import { listThinking, type ThinkingAt } from './list-thinking.js';
import { separatorsOf } from './plan-thinking.js';
import type { FrozenThinking, ThinkingSkipReason, ThinkingVerdict } from './thinking-types.js';

/** A removal splice and the message it lies in (the incremental rewrite filters by message). */
export interface ThinkingSplice {
  readonly messageIndex: number;
  readonly splice: Splice;
}

/** A frozen block left in the request, and why. */
export interface SkippedThinking {
  readonly ordinal: number;
  readonly reason: ThinkingSkipReason;
}

/** The frozen thinking blocks judged against one body. */
export interface JudgedThinking {
  /** One per frozen block, in the order of the frozen list. */
  readonly verdicts: readonly ThinkingVerdict[];
  readonly splices: readonly ThinkingSplice[];
  /** Per message, the block positions removed (what the self-check expects gone). */
  readonly removed: ReadonlyMap<number, ReadonlySet<number>>;
  readonly skipped: readonly SkippedThinking[];
  /** How many blocks this request goes without. */
  readonly count: number;
}

/** What judging needs besides the body. */
export interface ThinkingJudgeOptions {
  readonly sha256: Sha256;
  /** Whether the block's file exists: a block is removed only when it can be given back. */
  readonly isAvailable?: (block: FrozenThinking) => boolean;
  /** Shed mode: whether a message is inside a span that is applied (its blocks go with the span). */
  readonly inSpan?: (messageIndex: number) => boolean;
  /** The verdict of frozen block i when known already (the incremental rewrite's shared prefix). */
  readonly reuse?: (i: number) => ThinkingVerdict | undefined;
}

/** No frozen thinking: nothing judged, nothing removed. */
export const NO_THINKING: JudgedThinking = { verdicts: [], splices: [], removed: new Map(), skipped: [], count: 0 };

/** Judges each frozen thinking block and plans the splices that remove the ones that go. */
export function judgeThinking(body: Uint8Array, index: TranscriptIndex, frozen: readonly FrozenThinking[], options: ThinkingJudgeOptions): JudgedThinking {
  if (frozen.length === 0) return NO_THINKING;
  const present = listThinking(index);
  const verdicts: ThinkingVerdict[] = frozen.map((block, i) => options.reuse?.(i) ?? verdictOf(body, index, present[block.ordinal], block, options));
  const removed = new Map<number, Set<number>>();
  for (const [i, block] of frozen.entries()) {
    if (verdicts[i] !== 'removed') continue;
    const set = removed.get(block.messageIndex) ?? new Set<number>();
    set.add(block.blockIndex);
    removed.set(block.messageIndex, set);
  }
  // A message must keep a block: one whose blocks would all go keeps them all.
  for (const [m, set] of removed) {
    if (set.size < index.messages[m]!.blocks.length) continue;
    removed.delete(m);
    for (const [i, block] of frozen.entries()) if (block.messageIndex === m && verdicts[i] === 'removed') verdicts[i] = 'thinking_alone';
  }
  const splices: ThinkingSplice[] = [];
  for (const [m, set] of [...removed].sort((a, b) => a[0] - b[0])) splices.push(...spliceRuns(index, m, set));
  const skipped: SkippedThinking[] = [];
  let count = 0;
  for (const [i, verdict] of verdicts.entries()) {
    if (verdict === 'removed') count++;
    else skipped.push({ ordinal: frozen[i]!.ordinal, reason: verdict });
  }
  return { verdicts, splices, removed, skipped, count };
}

function verdictOf(
  body: Uint8Array,
  index: TranscriptIndex,
  at: ThinkingAt | undefined,
  block: FrozenThinking,
  options: ThinkingJudgeOptions,
): ThinkingVerdict {
  if (at === undefined) return 'thinking_missing';
  if (at.messageIndex !== block.messageIndex || at.blockIndex !== block.blockIndex || at.type !== block.type) return 'thinking_mismatch';
  if (options.inSpan?.(at.messageIndex) === true) return 'thinking_in_span';
  // Length first: it costs nothing. Then the hash of the bytes as they lie in the body.
  if (at.block.end - at.block.start !== block.jsonBytes) return 'thinking_mismatch';
  if (options.sha256(body.subarray(at.block.start, at.block.end)) !== block.sha256) return 'thinking_mismatch';
  // The separators too: inflate puts back the ones recorded, so they must be these.
  const seps = separatorsOf(body, index, at);
  if (seps.sepBefore !== undefined && seps.sepBefore !== (block.sepBefore ?? ',')) return 'thinking_mismatch';
  if (seps.sepAfter !== undefined && seps.sepAfter !== (block.sepAfter ?? ',')) return 'thinking_mismatch';
  if (options.isAvailable !== undefined && !options.isAvailable(block)) return 'thinking_file_missing';
  return 'removed';
}

/**
 * One splice per run of consecutive removed blocks: with the comma before it (from the end of
 * the kept block before the run), or, for a run at the start, with the comma after it (up to the
 * kept block after the run). The caller guarantees a kept block exists.
 */
function spliceRuns(index: TranscriptIndex, messageIndex: number, removed: ReadonlySet<number>): ThinkingSplice[] {
  const blocks = index.messages[messageIndex]!.blocks;
  const sorted = [...removed].sort((a, b) => a - b);
  const splices: ThinkingSplice[] = [];
  const empty = new Uint8Array(0);
  for (let r = 0; r < sorted.length; ) {
    let last = r;
    while (last + 1 < sorted.length && sorted[last + 1] === sorted[last]! + 1) last++;
    const first = sorted[r]!;
    const end = sorted[last]!;
    const splice: Splice =
      first > 0
        ? { start: blocks[first - 1]!.end, end: blocks[end]!.end, bytes: empty }
        : { start: blocks[0]!.start, end: blocks[end + 1]!.start, bytes: empty };
    splices.push({ messageIndex, splice });
    r = last + 1;
  }
  return splices;
}
