/**
 * The shed splice's check of its own output (docs/design.md invariant 6): the output is re-indexed
 * from its bytes and must be the input with each applied span's messages replaced by exactly one
 * stub message, every other message byte for byte, the bytes outside `messages` unchanged, and
 * the roles and tool pairs around each stub as the API requires.
 */
import { bytesEqual } from '../block-text.js';
import { indexTranscript, type TranscriptIndex } from '../transcript-index.js';

/** A span the splice replaced, and the stub message it put in its place. */
export interface AppliedSpan {
  readonly first: number;
  readonly last: number;
  readonly stub: Uint8Array;
}

/** `undefined` when the output passes; else what failed. `applied` is in message order. */
export function checkShed(input: Uint8Array, before: TranscriptIndex, output: Uint8Array, applied: readonly AppliedSpan[]): string | undefined {
  const outcome = indexTranscript(output);
  if (outcome.kind !== 'indexed') return `output does not index: ${outcome.reason}: ${outcome.detail}`;
  const after = outcome.index;
  const head = before.messagesSpan.start;
  if (after.messagesSpan.start !== head || !bytesEqual(input.subarray(0, head), output.subarray(0, head))) {
    return 'bytes before "messages" changed';
  }
  if (!bytesEqual(input.subarray(before.messagesSpan.end), output.subarray(after.messagesSpan.end))) {
    return 'bytes after "messages" changed';
  }
  let o = 0;
  let k = 0;
  for (let i = 0; i < before.messages.length; i++, o++) {
    const now = after.messages[o];
    if (now === undefined) return `output has fewer messages than expected at input message ${i}`;
    const span = applied[k];
    if (span !== undefined && span.first === i) {
      if (!bytesEqual(output.subarray(now.start, now.end), span.stub)) return `message ${o} does not hold the stub of span ${span.first}..${span.last}`;
      const previous = after.messages[o - 1];
      if (previous !== undefined && previous.blocks.some((b) => b.type === 'tool_use')) return `message ${o - 1} has a tool_use right before a stub`;
      // Contiguous spans give consecutive stubs (user turns, combined by the API); the last of
      // them is followed by an assistant turn.
      const nextIsStub = applied[k + 1]?.first === span.last + 1;
      if (!nextIsStub && after.messages[o + 1]?.role !== 'assistant') return `message ${o + 1} after a stub is not an assistant message`;
      i = span.last;
      k++;
      continue;
    }
    const was = before.messages[i]!;
    if (!bytesEqual(output.subarray(now.start, now.end), input.subarray(was.start, was.end))) return `message ${o} (input ${i}) changed`;
  }
  if (k !== applied.length) return 'a span was not found in order';
  if (o !== after.messages.length) return 'output has more messages than expected';
  return undefined;
}
