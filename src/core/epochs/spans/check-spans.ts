/**
 * The shed splice's check of its own output (docs/design.md invariant 6): the output is re-indexed
 * from its bytes and must be the input with each applied span's messages replaced by exactly one
 * stub message, every other message byte for byte, the bytes outside `messages` unchanged, and
 * the roles and tool pairs around each stub as the API requires. The output is re-indexed by the
 * body's own API (`reindex`): a Responses stub is followed by an item only the model writes.
 */
import { bytesEqual } from '../../block-text.js';
import { applySplicesWithin } from '../../splices.js';
import type { ThinkingSplice } from '../../thinking/remove-thinking.js';
import { isModelTurnRole } from '../../shed/responses-facts.js';
import { indexTranscript, type IndexOutcome, type TranscriptIndex } from '../../messages/transcript-index.js';
import { checkOutsideMessages } from '../check-outside.js';

/** A span the splice replaced, and the stub message it put in its place. */
export interface AppliedSpan {
  readonly first: number;
  readonly last: number;
  readonly stub: Uint8Array;
}

/**
 * `undefined` when the output passes; else what failed. `applied` is in message order. A message
 * with `removed` thinking must be its input bytes with exactly those splices applied (and keep a
 * block); every other kept message is byte for byte its input.
 */
export function checkShed(
  input: Uint8Array,
  before: TranscriptIndex,
  output: Uint8Array,
  applied: readonly AppliedSpan[],
  removed: readonly ThinkingSplice[] = [],
  reindex: (body: Uint8Array) => IndexOutcome = indexTranscript,
): string | undefined {
  const outcome = reindex(output);
  if (outcome.kind !== 'indexed') return `output does not index: ${outcome.reason}: ${outcome.detail}`;
  const after = outcome.index;
  const outside = checkOutsideMessages(input, before, output, after);
  if (outside !== undefined) return outside;
  let o = 0;
  let k = 0;
  for (let i = 0; i < before.messages.length; i++, o++) {
    const now = after.messages[o];
    if (now === undefined) return `output has fewer messages than expected at input message ${i}`;
    const span = applied[k];
    if (span !== undefined && span.first === i) {
      if (!bytesEqual(output.subarray(now.start, now.end), span.stub)) return `message ${o} does not hold the stub of span ${span.first}..${span.last}`;
      const previous = after.messages[o - 1];
      if (previous?.blocks.some((b) => b.type === 'tool_use')) return `message ${o - 1} has a tool_use right before a stub`;
      // Contiguous spans give consecutive stubs (user turns, combined by the API); the last of
      // them is followed by an assistant turn.
      const nextIsStub = applied[k + 1]?.first === span.last + 1;
      if (!nextIsStub && !isModelTurnRole(after.messages[o + 1]?.role ?? '')) return `message ${o + 1} after a stub is not an assistant message`;
      i = span.last;
      k++;
      continue;
    }
    const was = before.messages[i]!;
    const expected = applySplicesWithin(
      input,
      was.start,
      was.end,
      removed.filter((r) => r.messageIndex === i).map((r) => r.splice),
    );
    if (expected === undefined) return `message ${i}: a thinking removal lies outside it`;
    if (!bytesEqual(output.subarray(now.start, now.end), expected)) return `message ${o} (input ${i}) changed`;
    if (now.content.kind === 'array' && now.blocks.length === 0 && was.blocks.length > 0) return `message ${o} lost all its content`;
  }
  if (k !== applied.length) return 'a span was not found in order';
  if (o !== after.messages.length) return 'output has more messages than expected';
  return undefined;
}
