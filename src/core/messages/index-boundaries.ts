/** The message boundaries of an index that indexing can resume at (transcript-index.ts: resumeIndex; build-index.ts). */
import type { TranscriptIndex } from '../transcript-index-types.js';

/** Byte offset where indexing resumes after `messageCount` messages of an index. */
export function resumeOffset(index: TranscriptIndex, messageCount: number): number {
  return messageCount === 0 ? index.messagesSpan.start : index.messages[messageCount - 1]!.end;
}

/** How many tool results lie in the first `messageCount` messages. */
export function toolResultsBefore(index: TranscriptIndex, messageCount: number): number {
  const results = index.toolResults;
  let lo = 0;
  let hi = results.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (results[mid]!.messageIndex < messageCount) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
