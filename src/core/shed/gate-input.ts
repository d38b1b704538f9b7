/**
 * The gate's inputs for a planned shed span or a rescue epoch, estimated from the body: what the
 * epoch stops sending, what a burst re-writes, and how many turns the conversation has had (its
 * model calls, as its dialect counts them: core/dialects/model-calls.ts).
 */
import type { TranscriptIndex } from '../transcript-index-types.js';
import type { GateInput } from '../break-even.js';
import type { FrozenBlock } from '../epoch-types.js';
import { partPlaceOf, type PlacedBlock } from '../part-place.js';

/** What the estimate needs besides the body's index. */
export interface GateEstimate {
  /** The conversation's tokens per body byte, from its last reading (0.25 without one). */
  readonly tokensPerByte: number;
  /** Bytes of what is sent instead: the stub message of a span, or all the stubs of a rescue epoch. */
  readonly stubBytes: number;
  /** The model calls the transcript records: its dialect's `modelCalls`. */
  readonly turnsSoFar: number;
  readonly horizon?: number;
  readonly oneHourCache: boolean;
  /** The reading's fullness, which lets the gate give way near the window (GATE_CEILING). */
  readonly fullness?: number;
}

/** The gate input for shedding messages [first, last] of an indexed body. */
export function shedGateInput(index: TranscriptIndex, span: { readonly first: number; readonly last: number }, estimate: GateEstimate): GateInput {
  const messages = index.messages;
  const spanBytes = messages[span.last]!.end - messages[span.first]!.start;
  const after = messages[span.last + 1];
  const suffixBytes = after === undefined ? 0 : messages[messages.length - 1]!.end - after.start;
  const input = {
    invalidatedSuffixTokens: Math.round(suffixBytes * estimate.tokensPerByte),
    droppedCachedTokens: Math.max(0, Math.round((spanBytes - estimate.stubBytes) * estimate.tokensPerByte)),
    turnsSoFar: estimate.turnsSoFar,
    oneHourCache: estimate.oneHourCache,
  };
  return withOptional(input, estimate);
}

/**
 * The gate input for a rescue epoch (`--gate`): the stubs replace content values, so the burst
 * re-writes everything from the first new stub on, and the blocks stop sending their JSON less
 * their stubs.
 */
export function rescueGateInput(
  index: TranscriptIndex,
  added: ReadonlyArray<Pick<FrozenBlock, 'ordinal' | 'jsonBytes'> & PlacedBlock>,
  estimate: GateEstimate,
): GateInput {
  // A part of the deeper cut changes its own block; a tool result, its content.
  const startOf = (b: (typeof added)[number]): number => partPlaceOf(b, index)?.start ?? index.toolResults[b.ordinal]?.content.start ?? index.messagesSpan.end;
  const firstChanged = Math.min(...added.map(startOf));
  const suffixBytes = Math.max(0, index.messagesSpan.end - firstChanged);
  const droppedBytes = added.reduce((sum, b) => sum + b.jsonBytes, 0) - estimate.stubBytes;
  const input = {
    invalidatedSuffixTokens: Math.round(suffixBytes * estimate.tokensPerByte),
    droppedCachedTokens: Math.max(0, Math.round(droppedBytes * estimate.tokensPerByte)),
    turnsSoFar: estimate.turnsSoFar,
    oneHourCache: estimate.oneHourCache,
  };
  return withOptional(input, estimate);
}

function withOptional(input: GateInput, estimate: GateEstimate): GateInput {
  return {
    ...input,
    ...(estimate.horizon === undefined ? {} : { horizon: estimate.horizon }),
    ...(estimate.fullness === undefined ? {} : { fullness: estimate.fullness }),
  };
}
