/**
 * The part of every kind's output check that is the same: the bytes before and after `messages`
 * are the input's, byte for byte (docs/design.md invariant 4).
 */
import { bytesEqual } from '../block-text.js';
import type { TranscriptIndex } from '../transcript-index-types.js';

/** `undefined` when the output keeps the input's bytes outside `messages`; else what changed. */
export function checkOutsideMessages(input: Uint8Array, before: TranscriptIndex, output: Uint8Array, after: TranscriptIndex): string | undefined {
  const head = before.messagesSpan.start;
  if (after.messagesSpan.start !== head || !bytesEqual(input.subarray(0, head), output.subarray(0, head))) {
    return 'bytes before "messages" changed';
  }
  if (!bytesEqual(input.subarray(before.messagesSpan.end), output.subarray(after.messagesSpan.end))) {
    return 'bytes after "messages" changed';
  }
  return undefined;
}
