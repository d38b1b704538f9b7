/**
 * Indexing a request body from where the conversation's last one stopped being the same: the
 * shared prefix is found with one byte comparison (a port: the edge compares natively), and the
 * scan resumes at the last message boundary inside it. The client moves its `cache_control`
 * breakpoint off the previous last message, so that message is scanned again; so is everything
 * after `messages` (system, tools, ...), on every request.
 */
import type { CommonPrefixLength } from '../ports.js';
import type { RewriteMemo } from './rewrite-memo.js';
import { indexResumable, resumeIndex, type IndexOutcome, type ResumableIndex, type TranscriptIndex } from '../messages/transcript-index.js';

/** A body's index, and whether it was resumed from a memo. */
export interface IncrementalIndex {
  /** What `indexTranscript(body)` returns, exactly. */
  readonly outcome: IndexOutcome;
  /** The index with what a later resume needs (when indexed). */
  readonly resumable?: ResumableIndex;
  /** The memo it resumed from, and after how many of that memo's messages. */
  readonly resumed?: { readonly memo: RewriteMemo; readonly messageCount: number };
}

/** Indexes `body`, reusing what `memo` indexed of the bytes both share. Never throws. */
export function indexIncrementally(body: Uint8Array, memo: RewriteMemo | undefined, commonPrefixLength: CommonPrefixLength): IncrementalIndex {
  if (memo !== undefined) {
    const resumed = resumeFromMemo(body, memo, commonPrefixLength);
    if (resumed !== undefined) return resumed;
  }
  // No memo, nothing shared, or the rest does not index: the full scan, which also names the fault.
  const full = indexResumable(body);
  if (full.kind === 'failed') return { outcome: full };
  return { outcome: { kind: 'indexed', index: full.resumable.index }, resumable: full.resumable };
}

function resumeFromMemo(body: Uint8Array, memo: RewriteMemo, commonPrefixLength: CommonPrefixLength): IncrementalIndex | undefined {
  try {
    const shared = commonPrefixLength(memo.input, body);
    // A port that answers nonsense must not send the scan off a boundary it never reached.
    if (!Number.isInteger(shared) || shared < 0 || shared > Math.min(memo.input.length, body.length)) return undefined;
    const messageCount = sharedMessages(memo.inputIndex.index, shared);
    if (messageCount === undefined) return undefined;
    const resumable = resumeIndex(body, memo.inputIndex, messageCount);
    if (resumable === undefined) return undefined;
    return { outcome: { kind: 'indexed', index: resumable.index }, resumable, resumed: { memo, messageCount } };
  } catch {
    return undefined;
  }
}

/**
 * How many whole messages of `index` lie within its body's first `prefixLength` bytes: after
 * them a scan of a body sharing those bytes may resume. `undefined` when even the `[` that opens
 * `messages` is not shared.
 */
export function sharedMessages(index: TranscriptIndex, prefixLength: number): number | undefined {
  if (prefixLength <= index.messagesSpan.start) return undefined;
  const messages = index.messages;
  let lo = 0;
  let hi = messages.length;
  // The largest k with messages[k - 1].end <= prefixLength (message ends increase).
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (messages[mid - 1]!.end <= prefixLength) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
