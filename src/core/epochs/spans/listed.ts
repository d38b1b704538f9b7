/** The span kind's entries in the restore listing (`spans`, docs/commands.md `spans`): one per shed span. */
import type { FrozenSpan } from '../../shed/shed-types.js';
import type { ListedAt } from '../kind-record.js';

/**
 * One shed span of a conversation (shed mode). Spans are never sealed: `ctxshed seal` takes
 * elided blocks only (docs/shed.md, "Getting a span back").
 */
export interface RestorableSpan {
  readonly sha256: string;
  readonly bytes: number;
  readonly epoch: number;
  /** How many whole messages it holds, and their positions in the transcript (0-based, inclusive). */
  readonly messages: number;
  readonly first: number;
  readonly last: number;
  /** Goal pins its stub carries. */
  readonly pins: number;
  /** False when `spans/<sha256>.json` is not in the state directory (verify says more). */
  readonly present: boolean;
}

/** A span's entry in the listing. */
export function listedSpan(span: FrozenSpan, at: ListedAt): RestorableSpan {
  const { sha256, bytes, first, last, pins } = span;
  return { sha256, bytes, epoch: at.epoch, messages: last - first + 1, first, last, pins: pins.length, present: at.present };
}
