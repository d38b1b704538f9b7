/**
 * Whether a request over the threshold latches an epoch, of either kind: one pure decision that
 * the engine's one latch path (rescue/maybe-latch.ts) calls on what the kind would take out
 * (core/epochs/), and that replay reads back from the engine's hold. It ends in a latch or in a hold with a reason from the closed
 * list (core/decide/hold-reasons.ts). The order is the cost: the reading is checked before anything is
 * planned, and `take` (which may hash every eligible block) is asked only when it is fresh.
 */
import { isResultIn } from '../block-key.js';
import type { EpochLatch, EpochTake } from '../epoch-take.js';
import type { HoldReason } from './hold-reasons.js';
import { fullnessOf, type FullnessReading } from '../fullness-reading.js';
import { DEFAULT_MIN_GAIN_FRACTION, weighAdded, type DecidedBlock } from '../weigh-added.js';
import { crossedThreshold, gainFloorTokens, type ThresholdSettings } from '../latch-threshold.js';
import { decideBurst, GATE_CEILING, type GateDecision, type GateInput } from '../break-even.js';
import type { TurnPlace } from '../thinking/turn-place.js';
import type { PlannedSpan } from '../shed/shed-types.js';

/** Everything the decision reads. */
export interface EpochInput<B extends DecidedBlock> {
  readonly reading: FullnessReading | undefined;
  /** The thresholds in force for this request (core/latch-threshold.ts): e.g. 0.7 for `--rescue-pct 70`, and `--rescue-tokens`. */
  readonly thresholds: ThresholdSettings;
  /** The conversation's epochs so far. */
  readonly epochCount: number;
  readonly minGainFraction?: number;
  /** Asked only once the reading is over the threshold and fresh. */
  readonly take: () => EpochTake<B>;
  /** Where the turn stands (core/thinking/turn-place.ts); absent: latch anywhere, as on models without the prefix check. */
  readonly turn?: TurnPlace;
}

/** The decision: under the threshold nothing is decided; over it, a latch or a hold with its reason. */
export type EpochDecision<B extends DecidedBlock> =
  | { readonly kind: 'idle' }
  | EpochLatch<B>
  | { readonly kind: 'hold'; readonly reason: HoldReason; readonly detail: string; readonly gate?: GateDecision; readonly span?: PlannedSpan };

/** Decides whether this request latches an epoch, and if not, why. */
export function decideEpoch<B extends DecidedBlock>(input: EpochInput<B>): EpochDecision<B> {
  return timed(decideAnywhere(input), input.turn);
}

/** The decision's own type, for a caller that is handed it (a test's spy). */
export type DecideEpoch = typeof decideEpoch;

/**
 * On a prefix-check model a latch mid tool loop also removes the current turn's thinking; with
 * `latchAt: 'prompt'` it waits for the person's next prompt, unless the window is at the gate's
 * ceiling, where waiting risks a refusal. Asked last, so `mid_turn` names only holds it caused.
 */
function timed<B extends DecidedBlock>(decision: EpochDecision<B>, turn: TurnPlace | undefined): EpochDecision<B> {
  if (decision.kind !== 'latch' || turn === undefined || !turn.prefixCheck || turn.atPrompt) return decision;
  if (turn.latchAt === 'prompt' && decision.fullness < GATE_CEILING) {
    const at = `${Math.round(decision.fullness * 100)}%`;
    return {
      kind: 'hold',
      reason: 'mid_turn',
      detail: `the newest message is not a person's prompt, and ${at} is under the ${Math.round(GATE_CEILING * 100)}% ceiling`,
      ...(decision.span === undefined ? {} : { span: decision.span }),
    };
  }
  return { ...decision, midTurn: true };
}

function decideAnywhere<B extends DecidedBlock>(input: EpochInput<B>): EpochDecision<B> {
  const { reading, thresholds: settings } = input;
  if (reading === undefined || crossedThreshold(reading, settings) === undefined) return { kind: 'idle' };
  if (reading.epochsApplied < input.epochCount) {
    return {
      kind: 'hold',
      reason: 'stale_reading',
      detail: `the reading was taken on a request carrying ${reading.epochsApplied} of ${input.epochCount} epochs`,
    };
  }
  const take = input.take();
  const minGain = gainFloorTokens(reading, settings, input.minGainFraction ?? DEFAULT_MIN_GAIN_FRACTION);
  // The gate and the window weigh what this request carries, which grew since the last reading.
  const pressed = take.kind === 'none' ? reading : (take.reading ?? reading);
  switch (take.kind) {
    case 'none':
      return { kind: 'hold', reason: take.reason, detail: take.detail };
    case 'blocks':
      return decideBlocks(input, reading, take, minGain);
    case 'span': {
      const all = take.gate.droppedCachedTokens;
      // An epoch is for new weight (issue 39): what the span holds that was brought back does not pay
      // for it, unless the window forces it out: from the gate's ceiling on, or what came back since
      // the latest epoch, or twice (never what came back since the person's latest prompt: no take holds it).
      const back = take.forcedWorkingSet === true || fullnessOf(pressed) >= GATE_CEILING ? 0 : (take.broughtBackBytes ?? 0);
      if (back * 2 > take.span.bytes) {
        const detail = `${back} of the span's ${take.span.bytes} bytes were brought back: it would take out mostly what the model asked to see again`;
        return { kind: 'hold', reason: 'working_set_thrash', detail, span: take.span };
      }
      const freed = back === 0 ? all : Math.round((all * (take.span.bytes - back)) / take.span.bytes);
      // Within the minimum gain of the window any gain counts: the next turn may grow past it. Not
      // while the model works from what it brought back: that stays whatever the window, and only
      // new weight worth an epoch pays for one.
      const anyGain = pressed.contextTokens + minGain > pressed.window && take.holdsWorkingSet !== true;
      if (freed < minGain && !anyGain) {
        return {
          kind: 'hold',
          // Planned around the working set, what is left is too small: taking the working set would be a thrash.
          reason: take.span.cutByWorkingSet === true || back > 0 ? 'working_set_thrash' : 'gain_too_small',
          detail: `the span frees about ${freed} tokens${back > 0 ? ' of new weight' : ''}, under the ${Math.round(minGain)} asked`,
          span: take.span,
        };
      }
      const decided = gated(pressed, all, [], take.gate, take.span);
      if (decided.kind !== 'latch') return decided;
      return { ...decided, recentTokens: take.recentTokens, ...(take.fit === undefined ? {} : { fit: take.fit }) };
    }
  }
}

function decideBlocks<B extends DecidedBlock>(
  input: EpochInput<B>,
  reading: FullnessReading,
  take: Extract<EpochTake<B>, { kind: 'blocks' }>,
  minGain: number,
): EpochDecision<B> {
  // The threshold and the reading's freshness are asked already (decideAnywhere): the gain alone is left.
  const weighed = weighAdded(reading, input.thresholds, take.frozen, take.plan, input.minGainFraction);
  if (weighed.kind === 'enough') {
    // An epoch is for new weight (issue 39): the blocks that were brought back do not pay for it.
    const back = take.broughtBack;
    const fresh = back === undefined ? weighed.added : weighed.added.filter((b) => !isResultIn(b, back));
    const freshBytes = fresh.reduce((sum, b) => sum + b.bytes, 0);
    const allBytes = weighed.added.reduce((sum, b) => sum + b.bytes, 0);
    const freshTokens = Math.round((weighed.estimatedTokensFreed * freshBytes) / Math.max(1, allBytes));
    if (fresh.length === weighed.added.length || (freshBytes * 2 >= allBytes && freshTokens >= weighed.floorTokens)) {
      return gated(take.reading ?? reading, weighed.estimatedTokensFreed, weighed.added, take.gate?.(weighed.added));
    }
    const detail = `${weighed.added.length - fresh.length} of the ${weighed.added.length} blocks were brought back; the rest would free about ${freshTokens} tokens, under the ${Math.round(minGain)} asked`;
    return { kind: 'hold', reason: 'working_set_thrash', detail };
  }
  const kept = take.keptByWorkingSet ?? 0;
  if (kept > 0) {
    // At the gate's ceiling what stays is what no epoch takes: it does not fit with the rest.
    const reason = take.nearWindow === true ? 'working_set_exceeds_window' : 'working_set_thrash';
    return { kind: 'hold', reason, detail: `${kept} eligible blocks are in the working set; the rest would free too little` };
  }
  if (weighed.kind === 'nothing_new') {
    return { kind: 'hold', reason: 'nothing_new', detail: `${take.plan.length} eligible, ${take.frozen.length} frozen already` };
  }
  const bytes = weighed.added.reduce((sum, b) => sum + b.bytes, 0);
  return {
    kind: 'hold',
    reason: 'gain_too_small',
    detail: `${weighed.added.length} new blocks of ${bytes} bytes, under the ${Math.round(minGain)} tokens asked`,
  };
}

// The gate weighs the burst at the reading's fullness, so every caller gives way at the ceiling alike.
function gated<B extends DecidedBlock>(
  reading: FullnessReading,
  freed: number,
  added: readonly B[],
  gateInput: GateInput | undefined,
  span?: PlannedSpan,
): EpochDecision<B> {
  const fullness = fullnessOf(reading);
  const withSpan = span === undefined ? {} : { span };
  if (gateInput === undefined) return { kind: 'latch', fullness, estimatedTokensFreed: freed, added, ...withSpan };
  const weighed = weighGate(gateInput, fullness);
  if (weighed.kind === 'hold') return { ...weighed, ...withSpan };
  return { kind: 'latch', fullness, estimatedTokensFreed: freed, added, gate: weighed.gate, ...withSpan };
}

/**
 * The burst gate (core/break-even.ts) on a re-write at `fullness`: its decision, or the hold
 * it makes. A kind whose gate is a step after the decision (the tool-result kind's `--gate`) asks
 * it with the decision's fullness, as the decision itself would.
 */
export function weighGate(
  gateInput: GateInput,
  fullness: number,
):
  | { readonly kind: 'pass'; readonly gate: GateDecision }
  | { readonly kind: 'hold'; readonly reason: 'gate'; readonly detail: string; readonly gate: GateDecision } {
  const gate = decideBurst({ ...gateInput, fullness });
  if (gate.latch) return { kind: 'pass', gate };
  const turns = gate.breakEvenTurns === null ? 'never' : `after ${gate.breakEvenTurns} turns`;
  return { kind: 'hold', reason: 'gate', detail: `the re-write pays back ${turns}, ${gate.expectedRemainingTurns} expected`, gate };
}
