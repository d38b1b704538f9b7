/**
 * The one apply function, for either kind of epoch: `(request bytes, frozen items) -> applied |
 * passthrough(reason)`. Index, judge each frozen item, judge the conversation's frozen thinking,
 * pass through when nothing applies, plan and apply the splices in one copy, check the output,
 * and otherwise fail open. Pure; never throws.
 */
import { MESSAGES_API } from '../dialects/messages.js';
import type { PassthroughReason } from '../passthrough-reasons.js';
import { applySplices, planSplices } from '../splices.js';
import { judgeThinking, NO_THINKING, type JudgedThinking, type SkippedThinking } from '../thinking/remove-thinking.js';
import type { FrozenThinking, ThinkingVerdict } from '../thinking/thinking-types.js';
import type { ResumableIndex, TranscriptIndex } from '../transcript-index-types.js';
import { errorText } from '../../errors.js';
import type { ApplyOptions, EpochApplier, JudgedItems, Skip } from './epoch-applier.js';

/** The result of applying a conversation's epochs. A pass-through's `body` is the input itself. */
export type EpochOutcome<S extends Skip = Skip> =
  | {
      readonly kind: 'applied';
      readonly body: Uint8Array;
      /** Stubs in this request (the wire record's `rescued`). */
      readonly stubs: number;
      /** Bytes the stubs stand for (tool-result text, or the spans' bytes). */
      readonly bytesTaken: number;
      /** Whole messages the stubs stand for (spans only; 0 for tool results). */
      readonly messagesTaken: number;
      readonly skipped: readonly S[];
      /** Frozen thinking blocks removed from this request (docs/rescue.md, "Preserved thinking"). */
      readonly thinkingRemoved: number;
      readonly thinkingSkipped: readonly SkippedThinking[];
    }
  | {
      readonly kind: 'passthrough';
      readonly body: Uint8Array;
      readonly reason: PassthroughReason;
      readonly detail: string;
      readonly skipped: readonly S[];
    };

// Shorthand for "some kind of epoch": the functions below work on every kind alike.
// biome-ignore lint/suspicious/noExplicitAny: the kind's own types flow through the type parameters
type AnyApplier<F, A, S extends Skip, V, O extends ApplyOptions> = EpochApplier<F, A, S, V, O, any>;

/** The frozen thinking an apply judges: none for an API without thinking blocks. */
export function thinkingOf(options: ApplyOptions): readonly FrozenThinking[] {
  return options.api !== undefined && !options.api.supports.thinking ? [] : (options.thinking ?? []);
}

/** Applies a conversation's frozen items of one kind (and its frozen thinking) to a body. Never throws. */
export function applyEpochs<F, A, S extends Skip, V, O extends ApplyOptions>(
  kind: AnyApplier<F, A, S, V, O>,
  body: Uint8Array,
  frozen: readonly F[],
  options: O,
): EpochOutcome<S> {
  if (frozen.length === 0 && thinkingOf(options).length === 0) return passthroughOf(body, 'no_epoch', `no frozen ${kind.noun}`);
  try {
    let index = options.index;
    if (index === undefined) {
      const indexed = (options.api ?? MESSAGES_API).index(body);
      if (indexed.kind === 'failed') return passthroughOf(body, indexed.reason, indexed.detail);
      index = indexed.index;
    }
    return applyIndexed(kind, body, index, frozen, options).outcome;
  } catch (error) {
    return passthroughOf(body, 'internal_error', errorText(error));
  }
}

/** An apply's outcome and, when it applied, what an incremental rewrite may reuse of it. */
export interface IndexedApply<S extends Skip, V> {
  readonly outcome: EpochOutcome<S>;
  /** The output's index, built from the output's bytes by the check (tool results on Messages). */
  readonly after?: ResumableIndex;
  /** Each frozen item's verdict, in the order of `frozen`. */
  readonly verdicts: readonly V[];
  /** Each frozen thinking block's verdict, in the order of `options.thinking`. */
  readonly thinkingVerdicts: readonly ThinkingVerdict[];
}

/** The apply to a body whose index is known; may throw (callers catch). */
export function applyIndexed<F, A, S extends Skip, V, O extends ApplyOptions>(
  kind: AnyApplier<F, A, S, V, O>,
  body: Uint8Array,
  index: TranscriptIndex,
  frozen: readonly F[],
  options: O,
): IndexedApply<S, V> {
  const judged = kind.judge(body, index, frozen, options);
  const thinking = judgeThinkingOf(body, index, options, undefined, kind.inSpan?.(judged));
  const verdicts = { verdicts: judged.verdicts, thinkingVerdicts: thinking.verdicts };
  const none = noneApplied(kind, body, judged, thinking);
  if (none !== undefined) return { outcome: none, ...verdicts };
  const splices = planSplices([...judged.splices, ...thinking.splices.map((t) => t.splice)], body.length);
  if (splices === undefined) return { outcome: passthroughOf(body, 'self_check_failed', 'overlapping splices', judged.skipped), ...verdicts };
  const out = applySplices(body, splices, options.allocate);
  const check = kind.check(body, index, out, judged, thinking, options);
  if (!check.ok) return { outcome: passthroughOf(body, 'self_check_failed', check.failure, judged.skipped), ...verdicts };
  return { outcome: appliedOf(out, judged, thinking), ...(check.after === undefined ? {} : { after: check.after }), ...verdicts };
}

/**
 * The conversation's frozen thinking judged against the body (none for an API without it).
 * `reuse(i)` may supply block i's verdict; `inSpan` says which messages an applied span takes.
 */
export function judgeThinkingOf(
  body: Uint8Array,
  index: TranscriptIndex,
  options: ApplyOptions,
  reuse: ((i: number) => ThinkingVerdict | undefined) | undefined,
  inSpan?: (messageIndex: number) => boolean,
): JudgedThinking {
  const thinking = thinkingOf(options);
  if (thinking.length === 0) return NO_THINKING;
  return judgeThinking(body, index, thinking, {
    sha256: options.sha256,
    ...(options.isThinkingAvailable === undefined ? {} : { isAvailable: options.isThinkingAvailable }),
    ...(inSpan === undefined ? {} : { inSpan }),
    ...(reuse === undefined ? {} : { reuse }),
  });
}

/** The pass-through when no item applied and no thinking block went, else `undefined`. */
export function noneApplied<S extends Skip>(
  kind: { readonly noun: string; readonly fileMissing: { readonly skip: string; readonly reason: PassthroughReason } },
  body: Uint8Array,
  judged: JudgedItems<unknown, S, unknown>,
  thinking: JudgedThinking = NO_THINKING,
): EpochOutcome<S> | undefined {
  if (judged.applied.length > 0 || thinking.count > 0) return undefined;
  const allMissing = judged.skipped.every((s) => s.reason === kind.fileMissing.skip);
  const reason = allMissing ? kind.fileMissing.reason : 'epoch_mismatch';
  return passthroughOf(body, reason, `${judged.skipped.length} frozen ${kind.noun} skipped`, judged.skipped);
}

/** The applied outcome for an output that passed its check. */
export function appliedOf<S extends Skip>(out: Uint8Array, judged: JudgedItems<unknown, S, unknown>, thinking: JudgedThinking = NO_THINKING): EpochOutcome<S> {
  return {
    kind: 'applied',
    body: out,
    stubs: judged.applied.length,
    bytesTaken: judged.bytes,
    messagesTaken: judged.messages,
    skipped: judged.skipped,
    thinkingRemoved: thinking.count,
    thinkingSkipped: thinking.skipped,
  };
}

/** A pass-through: the input itself goes upstream. */
export function passthroughOf<S extends Skip = never>(
  body: Uint8Array,
  reason: PassthroughReason,
  detail: string,
  skipped: readonly S[] = [],
): EpochOutcome<S> {
  return { kind: 'passthrough', body, reason, detail, skipped };
}
