/** The index's fault in a body that is JSON but not a Messages API body it can read (transcript-index.ts). */
import type { IndexFailure } from '../transcript-index-types.js';

/** Thrown inside the scan and turned into a `failed` outcome at its top. */
export class ShapeError extends Error {
  constructor(
    readonly reason: Exclude<IndexFailure, 'not_json'>,
    detail: string,
  ) {
    super(detail);
  }
}
