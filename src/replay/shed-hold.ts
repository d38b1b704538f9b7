/**
 * Why shed mode held back on a request that was over the threshold: the engine's own decision
 * (core/decide-epoch.ts, on core/shed/weigh-span.ts's weighing, as rescue/maybe-shed.ts asks it),
 * asked again from the outside so that a replay can say where shed did nothing and why, with the
 * gate's figures and the span's size. The engine decides; this only explains. Pure.
 */
import {
  decideEpoch,
  DEFAULT_LATCH_AT,
  DEFAULT_SHED_POLICY,
  indexTranscript,
  turnPlaceOf,
  type LatchAt,
  type TurnPlace,
  weighSpan,
  type EpochDecision,
  type EpochTake,
  type FrozenSpan,
  type FullnessReading,
  type GateDecision,
  type HoldReason,
  type Sha256,
  type ShedPolicy,
  type ThresholdSettings,
} from '../core/index.js';

/** Why no shed epoch latched on a request over the threshold (docs/reasons.md, "Why no epoch latched"). */
export type ShedHold = HoldReason;

/** The explanation, or that the engine's rules would latch here. */
export type ShedHoldOutcome =
  | { readonly kind: 'held'; readonly why: ShedHold; readonly gate?: GateDecision; readonly spanBytes?: number; readonly windowBytes?: number }
  | { readonly kind: 'would_latch' };

/** What the engine knew when it judged the request. */
export interface ShedHoldInput {
  readonly body: Uint8Array;
  readonly spans: readonly FrozenSpan[];
  readonly reading: FullnessReading;
  readonly epochs: number;
  readonly spansDir: string;
  readonly sha256: Sha256;
  readonly policy?: ShedPolicy;
  readonly horizon?: number;
  readonly minGainFraction?: number;
  /** The engine's thresholds: the gain floor depends on which one the reading crossed. Absent: the fraction's floor. */
  readonly thresholds?: ThresholdSettings;
  /** The engine's `latchAt`, and whether the conversation learned it runs the prefix check (core/thinking/turn-place.ts). */
  readonly latchAt?: LatchAt;
  readonly learnedPrefixCheck?: boolean;
}

/** Why the engine's shed latch held back on this request (call it only for a request over the threshold). */
export function whyNoShed(input: ShedHoldInput): ShedHoldOutcome {
  const { reading } = input;
  // The caller checked the threshold; without the engine's thresholds, 0 lets the decision go on
  // to the reasons past it, with the fraction's gain floor.
  const thresholds = input.thresholds ?? { threshold: 0 };
  const decide = (take: () => EpochTake<never>, turn?: TurnPlace): EpochDecision<never> =>
    decideEpoch<never>({
      reading,
      ...thresholds,
      epochCount: input.epochs,
      ...(turn === undefined ? {} : { turn }),
      ...(input.minGainFraction === undefined ? {} : { minGainFraction: input.minGainFraction }),
      take,
    });
  const indexed = indexTranscript(input.body);
  if (indexed.kind === 'failed') {
    const unread = decide(() => ({ kind: 'none', reason: 'unreadable_body', detail: indexed.detail }));
    return unread.kind === 'hold' ? { kind: 'held', why: unread.reason } : { kind: 'would_latch' };
  }
  const { index } = indexed;
  const decision = decide(
    () =>
      weighSpan({
        body: input.body,
        index,
        spans: input.spans,
        reading,
        sha256: input.sha256,
        policy: input.policy ?? DEFAULT_SHED_POLICY,
        spansDir: input.spansDir,
        ...(input.horizon === undefined ? {} : { horizon: input.horizon }),
      }),
    turnPlaceOf(index, input.learnedPrefixCheck === true, input.latchAt ?? DEFAULT_LATCH_AT),
  );
  if (decision.kind !== 'hold') return { kind: 'would_latch' };
  const { span } = decision;
  if (span === undefined) return { kind: 'held', why: decision.reason };
  const last = index.messages[index.messages.length - 1];
  const after = index.messages[span.last + 1];
  const sizes = { spanBytes: span.bytes, windowBytes: after === undefined || last === undefined ? 0 : last.end - after.start };
  return { kind: 'held', why: decision.reason, ...(decision.gate === undefined ? {} : { gate: decision.gate }), ...sizes };
}
