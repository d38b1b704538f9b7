/**
 * The loop every kind judges its frozen items with: one verdict per item in the order of the
 * frozen list, the items that apply with their splices, the rest skipped with their reason, and
 * the totals the outcome reports.
 */
import type { Splice } from '../splices.js';
import type { JudgedItems, Skip } from './epoch-applier.js';

/** What one applied item adds to the outcome. */
export interface Taken<A> {
  readonly applied: A;
  readonly splice: Splice;
  readonly bytes: number;
  readonly messages: number;
}

/**
 * Judges `frozen` in order: `verdictOf` is called once per item, in order (a kind may carry state
 * from one item to the next); `take` and `skip` say what an applied or a skipped item becomes.
 */
export function judgeItems<F, A, S extends Skip, V extends string>(
  frozen: readonly F[],
  appliedVerdict: V,
  verdictOf: (item: F, i: number) => V,
  take: (item: F) => Taken<A>,
  skip: (item: F, reason: Exclude<V, typeof appliedVerdict>) => S,
): JudgedItems<A, S, V> {
  const verdicts: V[] = [];
  const applied: A[] = [];
  const splices: Splice[] = [];
  const skipped: S[] = [];
  let bytes = 0;
  let messages = 0;
  for (const [i, item] of frozen.entries()) {
    const verdict = verdictOf(item, i);
    verdicts.push(verdict);
    if (verdict !== appliedVerdict) {
      skipped.push(skip(item, verdict as Exclude<V, typeof appliedVerdict>));
      continue;
    }
    const taken = take(item);
    applied.push(taken.applied);
    splices.push(taken.splice);
    bytes += taken.bytes;
    messages += taken.messages;
  }
  return { verdicts, applied, splices, skipped, bytes, messages };
}
