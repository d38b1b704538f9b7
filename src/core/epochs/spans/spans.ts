/**
 * Shed mode's kind of epoch: frozen spans of whole messages. Each span is found by its message
 * ordinals, checked to be the bytes the epoch froze, and replaced with the span's stub message.
 * The separators around a span lie outside it and stay, so one message in place of many keeps
 * the array's commas right. apply.ts runs the rest.
 */
import type { TranscriptIndex } from '../../transcript-index-types.js';
import type { FrozenSpan, SkippedSpan, SpanSkipReason, SpanVerdict } from '../../shed/shed-types.js';
import { isModelTurnRole } from '../../shed/responses-facts.js';
import { spanStubMessage } from '../../shed/span-stub.js';
import type { EpochOutcome } from '../apply.js';
import { checkShed, type AppliedSpan } from './check-spans.js';
import type { EpochApplier, ItemOptions, JudgedItems } from '../epoch-applier.js';
import { findSpanStubs, type FoundSpanStub } from './find-span-stubs.js';
import { judgeItems, type Taken } from '../judge-items.js';
import { cachedStubs } from '../stub-cache.js';

/** What the splice needs from outside. */
export interface ShedOptions extends ItemOptions<FrozenSpan> {
  /** Absolute path of `<state>/spans`, named in every stub. */
  readonly spansDir: string;
}

/** The result of a shed splice. */
export type ShedOutcome = EpochOutcome<SkippedSpan>;

type JudgedSpans = JudgedItems<AppliedSpan, SkippedSpan, SpanVerdict>;

/** The stub message for `span`. */
const stubOf = cachedStubs(spanStubMessage);

function judgeSpans(
  body: Uint8Array,
  index: TranscriptIndex,
  spans: readonly FrozenSpan[],
  options: ShedOptions,
  reuse?: (i: number) => SpanVerdict | undefined,
): JudgedSpans {
  let previousLast = 0;
  const verdictOf = (span: FrozenSpan, i: number): SpanVerdict => {
    const verdict = reuse?.(i) ?? checkFrozenSpan(body, index, span, previousLast, options) ?? 'shed';
    previousLast = Math.max(previousLast, span.last);
    return verdict;
  };
  const take = (span: FrozenSpan): Taken<AppliedSpan> => {
    const stub = stubOf(span, options.spansDir);
    const splice = { start: index.messages[span.first]!.start, end: index.messages[span.last]!.end, bytes: stub };
    return { applied: { first: span.first, last: span.last, stub }, splice, bytes: span.bytes, messages: span.last - span.first + 1 };
  };
  return judgeItems(spans, 'shed', verdictOf, take, (span, reason) => ({ sha256: span.sha256, first: span.first, reason }));
}

function checkFrozenSpan(body: Uint8Array, index: TranscriptIndex, span: FrozenSpan, previousLast: number, options: ShedOptions): SpanSkipReason | undefined {
  // The head (message 0) is never shed, and a span never reaches back into an earlier one.
  if (span.first <= previousLast || span.last < span.first) return 'span_out_of_order';
  const firstMessage = index.messages[span.first];
  const lastMessage = index.messages[span.last];
  if (firstMessage === undefined || lastMessage === undefined || index.messages[span.last + 1] === undefined) return 'missing_span';
  // Length first: it costs nothing. Then the hash of the bytes as they lie in the body.
  if (lastMessage.end - firstMessage.start !== span.bytes) return 'span_hash_mismatch';
  if (options.sha256(body.subarray(firstMessage.start, lastMessage.end)) !== span.sha256) return 'span_hash_mismatch';
  if (!isModelTurnRole(index.messages[span.last + 1]!.role)) return 'span_boundary_changed';
  if (options.isAvailable !== undefined && !options.isAvailable(span)) return 'span_file_missing';
  return undefined;
}

/** Spans: one stub message in place of each frozen span's messages. */
export const SPANS: EpochApplier<FrozenSpan, AppliedSpan, SkippedSpan, SpanVerdict, ShedOptions, FoundSpanStub> = {
  noun: 'spans',
  fileMissing: { skip: 'span_file_missing', reason: 'span_file_missing' },
  judge: judgeSpans,
  // A thinking block inside an applied span goes with the span's bytes: only those after it are spliced out.
  inSpan: (judged) => (m) => judged.applied.some((a) => a.first <= m && m <= a.last),
  check(body, index, out, judged, thinking, options) {
    const failure = checkShed(body, index, out, judged.applied, thinking.splices, options.api?.index);
    return failure === undefined ? { ok: true } : { ok: false, failure };
  },
  findStubs: findSpanStubs,
};
