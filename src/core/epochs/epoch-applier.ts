/**
 * The apply side of one kind of epoch, behind one interface: what happens to a request once its
 * conversation's epochs are frozen. Tool results (rescue mode, tool-results.ts) and spans of
 * whole messages (shed mode, spans.ts) differ only in what they find, how they judge it, what
 * they splice in and how they check the output; apply.ts runs the one skeleton over either.
 */
import type { ApiDialect } from '../dialects/dialect.js';
import type { PassthroughReason } from '../passthrough-reasons.js';
import type { Sha256 } from '../ports.js';
import type { Allocate, Splice } from '../splices.js';
import type { JudgedThinking } from '../thinking/remove-thinking.js';
import type { FrozenThinking } from '../thinking/thinking-types.js';
import type { ResumableIndex, TranscriptIndex } from '../transcript-index-types.js';

/** What applying needs from outside, whatever the kind. */
export interface ApplyOptions {
  readonly sha256: Sha256;
  /** The body's index, when the caller already built it (saves a pass). */
  readonly index?: TranscriptIndex;
  /** Allocates the output (the edge passes `Buffer.allocUnsafe`; see applySplices). */
  readonly allocate?: Allocate;
  /** The API the body speaks, which indexes it and the output (Messages by default). */
  readonly api?: ApiDialect;
  /**
   * The thinking blocks the conversation's epochs removed (none by default, and none for an API
   * without thinking), and whether each one's file exists: a block is removed only when it can
   * be given back.
   */
  readonly thinking?: readonly FrozenThinking[];
  readonly isThinkingAvailable?: (block: FrozenThinking) => boolean;
}

/** What applying one kind needs besides: whether an item's files exist (a stub must never name a missing file). */
export interface ItemOptions<F> extends ApplyOptions {
  readonly isAvailable?: (item: F) => boolean;
}

/** A frozen item left alone in this request, and why: each kind names the item its own way. */
export interface Skip {
  readonly reason: string;
}

/** A kind's frozen items judged against one body. */
export interface JudgedItems<Applied, S extends Skip, Verdict> {
  /** One per frozen item, in the order of the frozen list (the incremental rewrite keeps them). */
  readonly verdicts: readonly Verdict[];
  /** The items that go, in the order of the frozen list, and the splice each one makes. */
  readonly applied: readonly Applied[];
  readonly splices: readonly Splice[];
  readonly skipped: readonly S[];
  /** Bytes the stubs stand for. */
  readonly bytes: number;
  /** Whole messages the stubs stand for (spans only). */
  readonly messages: number;
}

/** The output's check: its index when the kind keeps one for an incremental rewrite, or what failed. */
export type OutputCheck = { readonly ok: true; readonly after?: ResumableIndex } | { readonly ok: false; readonly failure: string };

/** A stub found in an applied body: the bytes inflate puts the original back over. */
export interface FoundAt {
  readonly start: number;
  readonly end: number;
}

/** One kind of epoch's apply side. Every method may throw; apply.ts catches and fails open. */
export interface EpochApplier<Frozen, Applied, S extends Skip, Verdict, Options extends ApplyOptions, Found extends FoundAt> {
  /** What the kind's items are called in a pass-through's detail ("blocks", "spans"). */
  readonly noun: string;
  /** The skip reason of an item whose file is missing, and the pass-through when every skip is one. */
  readonly fileMissing: { readonly skip: S['reason']; readonly reason: PassthroughReason };
  /** Judges each frozen item; `reuse(i)`, when given, may supply item i's verdict instead (consulted first). */
  judge(
    body: Uint8Array,
    index: TranscriptIndex,
    frozen: readonly Frozen[],
    options: Options,
    reuse?: (i: number) => Verdict | undefined,
  ): JudgedItems<Applied, S, Verdict>;
  /** Whether a message lies inside an applied item: its thinking goes with the item's bytes. */
  inSpan?(judged: JudgedItems<Applied, S, Verdict>): (messageIndex: number) => boolean;
  /** The kind's check of its own output (docs/design.md invariant 6). */
  check(
    body: Uint8Array,
    index: TranscriptIndex,
    out: Uint8Array,
    judged: JudgedItems<Applied, S, Verdict>,
    thinking: JudgedThinking,
    options: Options,
  ): OutputCheck;
  /** Every stub of this kind in an applied body, in order. */
  findStubs(body: Uint8Array, index: TranscriptIndex): Found[];
}
