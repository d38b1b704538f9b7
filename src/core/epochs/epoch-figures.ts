/**
 * What the reports count of one epoch (src/report/epoch-summary.ts): each kind's `figures` hook
 * gives its part from its items, and the parts add up (`addFigures`), so the reports loop over the
 * kinds and name none. A kind without the hook adds nothing here; the reports count its items
 * (`counts: 'items'`).
 */
import type { Epoch } from '../epoch-types.js';
import type { SpanSummary } from './spans/figures.js';

/** An epoch's figures, the same for every kind: each kind fills the ones that are its own. */
export interface EpochFigures {
  /** Tool results elided, their text bytes and those in tokens, their reads back, and how many were read back. */
  readonly blocks: number;
  readonly bytes: number;
  readonly tokens: number;
  readonly refaults: number;
  readonly blocksRefaulted: number;
  /** Thinking blocks removed (docs/rescue.md, "Preserved thinking"). */
  readonly thinking: number;
  /** A shed epoch's span, priced per later turn; null for any other epoch. */
  readonly span: SpanSummary | null;
  /** The bytes it took out of every later request, every kind's (the metrics' `bytes`). */
  readonly bytesTaken: number;
}

/** What the reports know of an epoch besides its items: its record, and what the wire log says of it. */
export interface FiguresAt {
  readonly epoch: Epoch;
  /** The conversation's tokens per byte. */
  readonly tokensPerByte: number;
  /** How many later calls read back the epoch's item at `ordinal` (0 without a wire log). */
  readonly readsOf: (ordinal: number) => number;
  /** How many times the epoch's stored text was restored by its handle (0 without a wire log). */
  readonly restores: number;
  /** The cache read of the call the epoch latched after; null when the wire log has none. */
  readonly cacheReadBefore: number | null;
}

/** An epoch with nothing counted. */
export const NO_FIGURES: EpochFigures = { blocks: 0, bytes: 0, tokens: 0, refaults: 0, blocksRefaulted: 0, thinking: 0, span: null, bytesTaken: 0 };

/** Two parts of an epoch's figures as one: counts add, a span is whichever part has one. */
export function addFigures(a: EpochFigures, b: Partial<EpochFigures>): EpochFigures {
  return {
    blocks: a.blocks + (b.blocks ?? 0),
    bytes: a.bytes + (b.bytes ?? 0),
    tokens: a.tokens + (b.tokens ?? 0),
    refaults: a.refaults + (b.refaults ?? 0),
    blocksRefaulted: a.blocksRefaulted + (b.blocksRefaulted ?? 0),
    thinking: a.thinking + (b.thinking ?? 0),
    span: b.span ?? a.span,
    bytesTaken: a.bytesTaken + (b.bytesTaken ?? 0),
  };
}
