/**
 * The shed splice: `(request bytes, frozen spans) -> shed | passthrough(reason)`. A pure function:
 * it locates each frozen span by its message ordinals, checks its bytes are the ones the epoch
 * froze, replaces them with the span's stub message, checks its own output, and otherwise fails
 * open. The separators around a span lie outside it and stay, so one message in place of many
 * keeps the array's commas right.
 */
import type { PassthroughReason } from '../passthrough-reasons.js';
import type { Sha256 } from '../ports.js';
import { applySplices, planSplices, type Allocate, type Splice } from '../splices.js';
import { indexTranscript, type TranscriptIndex } from '../transcript-index.js';
import { judgeThinking, NO_THINKING, type JudgedThinking, type SkippedThinking } from '../thinking/remove-thinking.js';
import type { FrozenThinking } from '../thinking/thinking-types.js';
import { checkShed, type AppliedSpan } from './check-shed.js';
import type { FrozenSpan, SpanSkipReason } from './shed-types.js';
import { spanStubMessage } from './span-stub.js';

/** A frozen span left alone in this request, and why. */
export interface SkippedSpan {
  readonly sha256: string;
  readonly first: number;
  readonly reason: SpanSkipReason;
}

/** The result of a shed splice. A pass-through's `body` is the input itself. */
export type ShedOutcome =
  | {
      readonly kind: 'shed';
      readonly body: Uint8Array;
      /** Stub messages in this request. */
      readonly stubs: number;
      /** Messages the stubs stand for. */
      readonly messagesShed: number;
      /** Bytes of the spans the stubs stand for. */
      readonly bytesShed: number;
      readonly skipped: readonly SkippedSpan[];
      /** Frozen thinking blocks removed from this request (docs/shed.md, "Preserved thinking"). */
      readonly thinkingRemoved: number;
      readonly thinkingSkipped: readonly SkippedThinking[];
    }
  | {
      readonly kind: 'passthrough';
      readonly body: Uint8Array;
      readonly reason: PassthroughReason;
      readonly detail: string;
      readonly skipped: readonly SkippedSpan[];
    };

/** What the splice needs from outside. */
export interface ShedOptions {
  /** Absolute path of `<state>/spans`, named in every stub. */
  readonly spansDir: string;
  readonly sha256: Sha256;
  /** Whether the span's files exist; a stub must never name a missing file. */
  readonly isAvailable?: (span: FrozenSpan) => boolean;
  /** The body's index, when the caller already built it. */
  readonly index?: TranscriptIndex;
  /** Allocates the output (the edge passes `Buffer.allocUnsafe`). */
  readonly allocate?: Allocate;
  /** The thinking blocks the conversation's epochs removed, and whether each one's file exists. */
  readonly thinking?: readonly FrozenThinking[];
  readonly isThinkingAvailable?: (block: FrozenThinking) => boolean;
}

// The proxy hands in the same frozen span objects on every request of a conversation.
const STUBS = new WeakMap<FrozenSpan, { readonly spansDir: string; readonly bytes: Uint8Array }>();

function stubOf(span: FrozenSpan, spansDir: string): Uint8Array {
  const known = STUBS.get(span);
  if (known !== undefined && known.spansDir === spansDir) return known.bytes;
  const bytes = spanStubMessage(span, spansDir);
  STUBS.set(span, { spansDir, bytes });
  return bytes;
}

/** Replaces each frozen span of a conversation with its stub. Never throws. */
export function shedRequest(body: Uint8Array, spans: readonly FrozenSpan[], options: ShedOptions): ShedOutcome {
  const pass = (reason: PassthroughReason, detail: string, skipped: readonly SkippedSpan[] = []): ShedOutcome => ({
    kind: 'passthrough',
    body,
    reason,
    detail,
    skipped,
  });
  try {
    if (spans.length === 0) return pass('no_epoch', 'no frozen spans');
    let index = options.index;
    if (index === undefined) {
      const indexed = indexTranscript(body);
      if (indexed.kind === 'failed') return pass(indexed.reason, indexed.detail);
      index = indexed.index;
    }
    const skipped: SkippedSpan[] = [];
    const applied: AppliedSpan[] = [];
    let messagesShed = 0;
    let bytesShed = 0;
    let previousLast = 0;
    for (const span of spans) {
      const why = checkFrozenSpan(body, index, span, previousLast, options);
      previousLast = Math.max(previousLast, span.last);
      if (why !== undefined) {
        skipped.push({ sha256: span.sha256, first: span.first, reason: why });
        continue;
      }
      applied.push({ first: span.first, last: span.last, stub: stubOf(span, options.spansDir) });
      messagesShed += span.last - span.first + 1;
      bytesShed += span.bytes;
    }
    const thinking = judgeShedThinking(body, index, applied, options);
    if (applied.length === 0 && thinking.count === 0) {
      const allMissing = skipped.every((s) => s.reason === 'span_file_missing');
      return pass(allMissing ? 'span_file_missing' : 'epoch_mismatch', `${skipped.length} frozen spans skipped`, skipped);
    }
    const planned: Splice[] = applied.map((a) => ({ start: index.messages[a.first]!.start, end: index.messages[a.last]!.end, bytes: a.stub }));
    const splices = planSplices([...planned, ...thinking.splices.map((t) => t.splice)], body.length);
    if (splices === undefined) return pass('self_check_failed', 'overlapping spans', skipped);
    const out = applySplices(body, splices, options.allocate);
    const failure = checkShed(body, index, out, applied, thinking.splices);
    if (failure !== undefined) return pass('self_check_failed', failure, skipped);
    return {
      kind: 'shed',
      body: out,
      stubs: applied.length,
      messagesShed,
      bytesShed,
      skipped,
      thinkingRemoved: thinking.count,
      thinkingSkipped: thinking.skipped,
    };
  } catch (error) {
    return pass('internal_error', error instanceof Error ? error.message : String(error));
  }
}

// A thinking block inside an applied span goes with the span's bytes: only those after it are spliced out.
function judgeShedThinking(body: Uint8Array, index: TranscriptIndex, applied: readonly AppliedSpan[], options: ShedOptions): JudgedThinking {
  const thinking = options.thinking ?? [];
  if (thinking.length === 0) return NO_THINKING;
  return judgeThinking(body, index, thinking, {
    sha256: options.sha256,
    inSpan: (m) => applied.some((a) => a.first <= m && m <= a.last),
    ...(options.isThinkingAvailable === undefined ? {} : { isAvailable: options.isThinkingAvailable }),
  });
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
  if (index.messages[span.last + 1]!.role !== 'assistant') return 'span_boundary_changed';
  if (options.isAvailable !== undefined && !options.isAvailable(span)) return 'span_file_missing';
  return undefined;
}
