/**
 * The rewrite that costs what is new. A conversation's next request is its last one plus a turn,
 * so with the last rewrite's memo the output up to the last message boundary before the first
 * changed byte is the memo's own output, already checked; only the rest is judged, spliced and
 * checked. It gives exactly the bytes and outcome `applyEpochs(TOOL_RESULTS, ...)` gives: anything it cannot vouch
 * for (a frozen list or an elided file that changed, a plan or check that fails) takes the full path.
 *
 * Why the output is still proven (docs/design.md invariant 6). The memo's output O passed the check
 * against its input I. The new input shares I's bytes up to the end of message k-1 (offset p);
 * scanning is deterministic, so both indexes reach that boundary in the same state, with the same
 * messages and tool results before it, and every frozen block there gets the same verdict (its
 * bytes are the same; whether its file exists is asked again). The new output is O's bytes up to
 * O's end of message k-1, then the input from p with the remaining stubs spliced. Its index is
 * resumed from O's at that boundary, so the rest of the output (the messages from k, and all bytes
 * after `messages`) is scanned and checked as the full check would; the checks of messages before
 * k compare exactly what they compared for O, and passed.
 */
import { appliedOf, applyEpochs, applyIndexed, judgeThinkingOf, noneApplied, passthroughOf, thinkingOf, type IndexedApply } from '../epochs/apply.js';
import { checkIndexedRewrite } from '../epochs/tool-results/check-tool-results.js';
import { TOOL_RESULTS, type BlockVerdict, type RewriteOptions, type RewriteOutcome, type SkippedBlock } from '../epochs/tool-results/tool-results.js';
import { isPart, type FrozenBlock } from '../epoch-types.js';
import type { IncrementalIndex } from './incremental-index.js';
import { createMemo, memoServes, type RewriteMemo } from './rewrite-memo.js';
import { applySplicesAfter, planSplices } from '../splices.js';
import { resumeIndex, resumeOffset, toolResultsBefore, type TranscriptIndex } from '../messages/transcript-index.js';
import type { ThinkingVerdict } from '../thinking/thinking-types.js';

/** The tool-result apply of one body, with what an incremental rewrite may reuse of it. */
type IndexedRewrite = IndexedApply<SkippedBlock, BlockVerdict>;

/** The outcome, and what to keep for the conversation's next request. */
export interface IncrementalRewrite {
  /** Exactly what `applyEpochs(TOOL_RESULTS, body, frozen, options)` returns. */
  readonly outcome: RewriteOutcome;
  /**
   * A new memo when this request was rewritten; `undefined` otherwise, and then the caller's old
   * memo (if any) is as good as it was.
   */
  readonly memo: RewriteMemo | undefined;
  /** Which path made the outcome (for benches, tests and the curious). */
  readonly path: 'incremental' | 'full';
}

/**
 * Rewrites `body` for the frozen blocks, reusing the memo `indexed` was resumed from when it
 * serves these blocks. `indexed` must come from `indexIncrementally(body, ...)`. Never throws.
 */
export function rewriteIncrementally(body: Uint8Array, frozen: readonly FrozenBlock[], options: RewriteOptions, indexed: IncrementalIndex): IncrementalRewrite {
  if (frozen.length === 0 && thinkingOf(options).length === 0)
    return { outcome: passthroughOf(body, 'no_epoch', 'no frozen blocks'), memo: undefined, path: 'full' };
  if (indexed.outcome.kind === 'failed') return { outcome: passthroughOf(body, indexed.outcome.reason, indexed.outcome.detail), memo: undefined, path: 'full' };
  const index = indexed.outcome.index;
  const { resumed, resumable } = indexed;
  // An index of some other body would make any rewrite wrong: index this one from scratch.
  if (index.byteLength !== body.length || (resumable !== undefined && resumable.index !== index)) {
    const { index: _ignored, ...fromScratch } = options;
    return { outcome: applyEpochs(TOOL_RESULTS, body, frozen, fromScratch), memo: undefined, path: 'full' };
  }
  if (resumed !== undefined && resumable !== undefined && memoServes(resumed.memo, frozen, options.elidedDir, options.sha256, thinkingOf(options))) {
    try {
      const fromMemo = rewriteFromMemo(body, index, frozen, options, resumed.memo, resumed.messageCount);
      if (fromMemo !== undefined) return finish(body, frozen, options, resumable, fromMemo, 'incremental');
    } catch {
      // Fall through: the full path decides, and names any fault itself.
    }
  }
  try {
    const full = applyIndexed(TOOL_RESULTS, body, index, frozen, options);
    return finish(body, frozen, options, resumable, full, 'full');
  } catch {
    // The apply from scratch meets the same fault and names it (internal_error).
    return { outcome: applyEpochs(TOOL_RESULTS, body, frozen, { ...options, index }), memo: undefined, path: 'full' };
  }
}

function finish(
  body: Uint8Array,
  frozen: readonly FrozenBlock[],
  options: RewriteOptions,
  inputIndex: IncrementalIndex['resumable'],
  rewrite: IndexedRewrite,
  path: IncrementalRewrite['path'],
): IncrementalRewrite {
  const { outcome, after } = rewrite;
  if (outcome.kind !== 'applied' || after === undefined || inputIndex === undefined) return { outcome, memo: undefined, path };
  const memo = createMemo({
    input: body,
    inputIndex,
    output: outcome.body,
    outputIndex: after,
    frozen,
    elidedDir: options.elidedDir,
    sha256: options.sha256,
    verdicts: rewrite.verdicts,
    thinking: thinkingOf(options),
    thinkingVerdicts: rewrite.thinkingVerdicts,
  });
  return { outcome, memo, path };
}

/**
 * The rewrite after the memo's first `messageCount` messages; `undefined` when this path cannot
 * vouch for the result (the caller takes the full path). A pass-through it returns is the one
 * the full path gives: the same verdicts make the same outcome.
 */
function rewriteFromMemo(
  body: Uint8Array,
  index: TranscriptIndex,
  frozen: readonly FrozenBlock[],
  options: RewriteOptions,
  memo: RewriteMemo,
  messageCount: number,
): IndexedRewrite | undefined {
  const sharedResults = toolResultsBefore(index, messageCount);
  let prefixChanged = false;
  // A block in the shared prefix keeps its verdict: its bytes are the memo's. Only whether its
  // files exist can change; if that changes a verdict, the memo's output prefix is not ours.
  // A part of the deeper cut lies in the prefix when its message does (its place names it).
  const inPrefix = (b: FrozenBlock): boolean => (isPart(b) ? b.messageIndex < messageCount : b.ordinal < sharedResults);
  const reuse = (i: number): BlockVerdict | undefined => {
    const block = frozen[i]!;
    if (!inPrefix(block)) return undefined;
    const was = memo.verdicts[i]!;
    if (was !== 'stubbed' && was !== 'file_missing') return was;
    const now: BlockVerdict = options.isAvailable === undefined || options.isAvailable(block) ? 'stubbed' : 'file_missing';
    if (now !== was) prefixChanged = true;
    return now;
  };
  const judged = TOOL_RESULTS.judge(body, index, frozen, options, reuse);
  // The same for thinking blocks: one in the shared prefix keeps its verdict unless its file came or went.
  const thinkingFrozen = thinkingOf(options);
  const reuseThinking = (i: number): ThinkingVerdict | undefined => {
    const block = thinkingFrozen[i]!;
    if (!(block.messageIndex < messageCount)) return undefined;
    const was = memo.thinkingVerdicts[i]!;
    if (was !== 'removed' && was !== 'thinking_file_missing') return was;
    const now: ThinkingVerdict = options.isThinkingAvailable === undefined || options.isThinkingAvailable(block) ? 'removed' : 'thinking_file_missing';
    if (now !== was) prefixChanged = true;
    return now;
  };
  const thinking = judgeThinkingOf(body, index, options, reuseThinking);
  if (prefixChanged) return undefined;
  const verdicts = { verdicts: judged.verdicts, thinkingVerdicts: thinking.verdicts };
  const noStub = noneApplied(TOOL_RESULTS, body, judged, thinking);
  if (noStub !== undefined) return { outcome: noStub, ...verdicts };
  const from = resumeOffset(index, messageCount);
  const splices = planSplices(
    [
      ...judged.applied.filter((s) => (s.at === undefined ? s.ordinal >= sharedResults : s.at.messageIndex >= messageCount)).map((s) => s.splice),
      ...thinking.splices.filter((t) => t.messageIndex >= messageCount).map((t) => t.splice),
    ],
    body.length,
    from,
  );
  if (splices === undefined) return undefined;
  const outputFrom = resumeOffset(memo.outputIndex.index, messageCount);
  const out = applySplicesAfter(memo.output.subarray(0, outputFrom), body, from, splices, options.allocate);
  const after = resumeIndex(out, memo.outputIndex, messageCount);
  if (after === undefined) return undefined;
  const removedAfter = new Map([...thinking.removed].filter(([m]) => m >= messageCount));
  const failure = checkIndexedRewrite(body, index, out, after.index, judged.applied, { message: messageCount, toolResult: sharedResults }, removedAfter);
  if (failure !== undefined) return undefined;
  return { outcome: appliedOf(out, judged, thinking), after, ...verdicts };
}
