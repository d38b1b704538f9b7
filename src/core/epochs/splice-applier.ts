/**
 * The applier of a kind that only makes splices (a registered kind's, as the test kind
 * `assistant_text`, docs/adding-a-kind.md): the kind judges its frozen items, each applied one
 * with its splice, and `applyEpochs` (apply.ts) runs the one pass over them, so the conversation's
 * frozen thinking is judged and removed by the same splices' plan, and the output is checked
 * (check-spliced.ts, then the kind's own check when it has one).
 */
import type { PassthroughReason } from '../passthrough-reasons.js';
import type { Splice } from '../splices.js';
import type { TranscriptIndex } from '../transcript-index-types.js';
import { checkSpliced } from './check-spliced.js';
import type { ApplyOptions, EpochApplier, FoundAt, JudgedItems, Skip } from './epoch-applier.js';

/** What a splice kind gives: its name for its items, its missing-file skip, its judge and its own check. */
export interface SpliceKind<F, S extends Skip, V, O extends ApplyOptions> {
  /** What its items are called in a pass-through's detail. */
  readonly noun: string;
  /** The skip reason of an item whose file is missing, and the pass-through when every skip is one. */
  readonly fileMissing: { readonly skip: S['reason']; readonly reason: PassthroughReason };
  /**
   * Judges each frozen item, in the order of `frozen`: an applied item is the splice it makes
   * (judge-items.ts `judgeItems` makes the lists). The splices must leave every thinking block as
   * it is: the check fails an output whose kept thinking blocks changed.
   */
  judge(body: Uint8Array, index: TranscriptIndex, frozen: readonly F[], options: O): JudgedItems<Splice, S, V>;
  /** The kind's own check of an output the shared one passed (`after`: its index): what failed, or `undefined`. */
  check?(body: Uint8Array, index: TranscriptIndex, out: Uint8Array, after: TranscriptIndex, judged: JudgedItems<Splice, S, V>, options: O): string | undefined;
}

/**
 * The kind's `EpochApplier`, for `applyEpochs`. It finds no stubs: a kind outside the built-ins
 * finds them by its readers' record's `inflate` (kind-record.ts).
 */
export function spliceApplier<F, S extends Skip, V, O extends ApplyOptions>(kind: SpliceKind<F, S, V, O>): EpochApplier<F, Splice, S, V, O, FoundAt> {
  return {
    noun: kind.noun,
    fileMissing: kind.fileMissing,
    judge: (body, index, frozen, options) => kind.judge(body, index, frozen, options),
    check(body, index, out, judged, thinking, options) {
      const shared = checkSpliced(body, index, out, judged.splices, thinking, options.api);
      if (!shared.ok) return shared;
      const failure = kind.check?.(body, index, out, shared.after, judged, options);
      return failure === undefined ? { ok: true } : { ok: false, failure };
    },
    findStubs: () => [],
  };
}
