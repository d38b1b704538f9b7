/**
 * The eligible blocks of a request as the latch decision reads them (ordinal and text bytes),
 * without hashing them, remembering what each block's own bytes said for the conversation's next
 * request. Over the threshold with the latch refused (a gain too small, a stale reading), every
 * request of a conversation asks again; judging each old tool result again (decoding its text)
 * cost about 15 ms at 4 MB on a quiet machine, and hashing it as `planElision` does 20 ms more.
 * A block whose bytes the next request shares (one native comparison, a port) keeps its verdict:
 * what the block's place says (`isOldEnough`) and whether a tool call reads it back are asked
 * again every time, since those depend on the rest of the body. The result equals what `planElision` would plan,
 * minus the hashes (properties/eligible-blocks.test.ts); a latch re-plans with `planElision`.
 */
import { bytesEqual } from './block-text.js';
import type { ElisionPolicy } from './epoch-types.js';
import { elidableText, isOldEnough, namesElidedDir, readBackNeedle, type PlanOptions } from './plan-elision.js';
import type { CommonPrefixLength } from './ports.js';
import type { TranscriptIndex } from './transcript-index-types.js';

/** What the latch decision reads of an eligible block. */
export interface EligibleBlock {
  readonly ordinal: number;
  readonly toolUseId: string;
  /** UTF-8 bytes of its text, as `PlannedBlock.bytes`. */
  readonly bytes: number;
}

/** A block's verdict from its own bytes, `[start, end)`: its text's bytes, or 0 when they do not allow eliding it. */
interface Verdict {
  readonly end: number;
  readonly bytes: number;
}

/** What one request's judging leaves for the conversation's next one. */
export interface EligibilityMemo {
  /** The body judged (kept, not copied: it must not change). */
  readonly body: Uint8Array;
  readonly minBytes: number;
  readonly needle: Uint8Array;
  /** tool_result verdicts by the block's start offset. */
  readonly results: ReadonlyMap<number, Verdict>;
  /** tool_use verdicts by start offset: 1 when the block names the elided directory, else 0. */
  readonly uses: ReadonlyMap<number, Verdict>;
  /** Estimated bytes held, for the memo cache's cap (the body counts whole, shared or not). */
  readonly bytes: number;
}

/** The eligible blocks, oldest first, and the memo for the next request. */
export interface EligibleOutcome {
  readonly blocks: readonly EligibleBlock[];
  readonly memo: EligibilityMemo;
  /** How many blocks were judged from their bytes (not from the memo). */
  readonly judged: number;
}

// A rough per-entry cost of the memo's maps, for the cap.
const VERDICT_BYTES = 64;

/**
 * The blocks `planElision(body, index, policy, ..., options)` would plan, without their hashes.
 * With `memo` (the conversation's previous request), a block inside the bytes both bodies share
 * keeps its verdict. Never throws for an index of `body`.
 */
export function findEligible(
  body: Uint8Array,
  index: TranscriptIndex,
  policy: ElisionPolicy,
  options: PlanOptions,
  memo: EligibilityMemo | undefined,
  commonPrefixLength: CommonPrefixLength,
): EligibleOutcome {
  const needle = readBackNeedle(options.elidedDir);
  const usable = memo !== undefined && memo.minBytes === policy.minBytes && bytesEqual(memo.needle, needle);
  const shared = usable ? sharedLength(memo.body, body, commonPrefixLength) : 0;
  // A verdict holds when the block is where it was and all its bytes are shared.
  const known = (verdicts: ReadonlyMap<number, Verdict> | undefined, start: number, end: number): Verdict | undefined => {
    if (end > shared || verdicts === undefined) return undefined;
    const v = verdicts.get(start);
    return v !== undefined && v.end === end ? v : undefined;
  };
  let judged = 0;
  const uses = new Map<number, Verdict>();
  const readers = new Set<string>();
  if (needle.length > 0) {
    for (const message of index.messages) {
      for (const block of message.blocks) {
        if (block.type !== 'tool_use') continue;
        const v = known(usable ? memo.uses : undefined, block.start, block.end) ?? { end: block.end, bytes: namesElidedDir(body, block, needle) ? 1 : 0 };
        uses.set(block.start, v);
        if (v.bytes === 1) readers.add(block.id);
      }
    }
  }
  const results = new Map<number, Verdict>();
  const blocks: EligibleBlock[] = [];
  for (const block of index.toolResults) {
    if (!isOldEnough(block, index, policy) || readers.has(block.toolUseId)) continue;
    // A content outside the block's span (no dialect indexes one so) is never taken on trust.
    const within = block.content.start >= block.start && block.content.end <= block.end;
    let v = within ? known(usable ? memo.results : undefined, block.start, block.end) : undefined;
    if (v === undefined) {
      judged++;
      v = { end: block.end, bytes: elidableText(body, block, policy)?.length ?? 0 };
    }
    results.set(block.start, v);
    if (v.bytes > 0) blocks.push({ ordinal: block.ordinal, toolUseId: block.toolUseId, bytes: v.bytes });
  }
  const bytes = body.length + (uses.size + results.size) * VERDICT_BYTES;
  return { blocks, memo: { body, minBytes: policy.minBytes, needle, results, uses, bytes }, judged };
}

function sharedLength(a: Uint8Array, b: Uint8Array, commonPrefixLength: CommonPrefixLength): number {
  try {
    const n = commonPrefixLength(a, b);
    // A port that answers nonsense shares nothing.
    return Number.isInteger(n) && n >= 0 && n <= Math.min(a.length, b.length) ? n : 0;
  } catch {
    return 0;
  }
}
