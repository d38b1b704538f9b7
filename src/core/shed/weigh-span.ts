/**
 * What a shed epoch latched on this request would take out, as core/decide/decide-epoch.ts weighs it:
 * the span (or why there is none) and the burst gate's input for it, estimated with the
 * conversation's own tokens per byte. The engine and replay both ask here, so they weigh alike.
 */
import type { EpochTake } from '../epoch-take.js';
import { fullnessOf, tokensPerByteOf, type FullnessReading } from '../fullness-reading.js';
import type { Sha256 } from '../ports.js';
import type { TranscriptIndex } from '../transcript-index-types.js';
import type { MessageFactsReader } from './message-facts-type.js';
import { shedGateInput } from './gate-input.js';
import { asksOneHourCache } from './one-hour-cache.js';
import { GATE_CEILING, type GateInput } from '../break-even.js';
import { freezeSpan, type ShedPlan } from './plan-span.js';
import type { SpanKeep } from './choose-span.js';
import { planShedToFit, shedFitOf, type HeldMessages } from './plan-to-fit.js';
import { recentBudgetTokens, type FrozenSpan, type PlannedSpan, type ShedPolicy } from './shed-types.js';
import { spanStubMessage } from './span-stub.js';

/** A shed take: a span with its gate input, or the refusal. */
export type SpanTake = Extract<EpochTake<never>, { readonly kind: 'none' | 'span' }>;

/** What the weighing needs: the body, its index, the spans frozen so far, the last reading. */
export interface SpanWeighing {
  readonly body: Uint8Array;
  readonly index: TranscriptIndex;
  readonly spans: readonly FrozenSpan[];
  /** The reading pressed up to this request (core/epochs/request-tokens.ts), or the last one. */
  readonly reading: FullnessReading;
  readonly sha256: Sha256;
  /** How the body's messages are read: its dialect's `messageFacts`. */
  readonly readFacts: MessageFactsReader;
  readonly policy: ShedPolicy;
  /** Where the span's files go: the stub names them, and its size counts against the gain. */
  readonly spansDir: string;
  readonly horizon?: number;
  /** The model calls the body records (its dialect's `modelCalls`): the gate's turns so far. */
  readonly modelCalls: number;
  /** The first message of the working set, which no span holds unless the window forces it out (-1 or absent: none). */
  readonly keepFrom?: number;
  /** Its last message: a span may start after it (-1 or absent: spans end before `keepFrom`). */
  readonly keepTo?: number;
  /** What was brought back since the person's latest prompt, by message: never taken, even near the window (absent: nothing). */
  readonly held?: HeldMessages;
  /** Answers a span takes all of or none of (core/epochs/repeat-groups.ts). */
  readonly together?: SpanKeep['together'];
  /** The bring-back bytes of a run of messages (core/epochs/working-set.ts `broughtBackIn`). */
  readonly broughtBack?: SpanKeep['broughtBack'];
}

/**
 * Plans the next span and the gate input for shedding it. From the gate's ceiling on, the span
 * must bring the request under the window (plan-to-fit.ts), and the plan says what it expects.
 * Never throws (planShed does not).
 */
export function weighSpan(input: SpanWeighing): SpanTake {
  const { body, index, reading, policy, spansDir } = input;
  const tokensPerByte = tokensPerByteOf(reading);
  const nearWindow = fullnessOf(reading) >= GATE_CEILING;
  const target = { contextTokens: reading.contextTokens, limit: reading.window, tokensPerByte, floorTokens: policy.recentFloorTokens, spansDir };
  const keepFrom = input.keepFrom ?? -1;
  const budget = {
    sha256: input.sha256,
    readFacts: input.readFacts,
    recentTokens: recentBudgetTokens(policy, reading.window),
    index,
    keepFrom,
    keepTo: input.keepTo ?? -1,
    ...(input.held === undefined ? {} : { held: input.held }),
    ...(input.together === undefined ? {} : { together: input.together }),
    ...(input.broughtBack === undefined ? {} : { broughtBack: input.broughtBack }),
  };
  const plan = planShedToFit(body, input.spans, budget, nearWindow ? target : undefined);
  if (plan.kind === 'none') return heldByWorkingSet(plan.plan, keepFrom, nearWindow);
  if (plan.heldByWorkingSet === true) {
    // Issue 39: what the model brought back since the person's latest prompt is never taken; the request goes on as it is.
    const detail = `what was brought back since the person's latest prompt (from message ${input.held?.from}) stays, and no span around it brings the request under the window (about ${plan.estimatedTokens} of ${reading.window} tokens)`;
    return { kind: 'none', reason: 'working_set_exceeds_window', detail };
  }
  const estimate = { tokensPerByte, spansDir, turnsSoFar: input.modelCalls, ...(input.horizon === undefined ? {} : { horizon: input.horizon }) };
  const gate = gateInputOf(body, index, plan.span, estimate);
  const fit = nearWindow ? { fit: shedFitOf(plan, reading.window) } : {};
  const forced = plan.forcedWorkingSet === true ? { forcedWorkingSet: true as const } : {};
  return { kind: 'span', span: plan.span, gate, recentTokens: plan.recentTokens, ...fit, ...forced, reading };
}

/** A refusal the working set caused says so (core/epochs/working-set.ts): a thrash, or near the window a working set that does not fit. */
function heldByWorkingSet(plan: Extract<ShedPlan, { kind: 'none' }>, keepFrom: number, nearWindow: boolean): SpanTake {
  if (plan.cutByWorkingSet !== true) return plan;
  const reason = nearWindow ? 'working_set_exceeds_window' : 'working_set_thrash';
  return { kind: 'none', reason, detail: `the working set starts at message ${keepFrom}; before it, ${plan.reason}: ${plan.detail}` };
}

/**
 * The burst gate's input for shedding `span`: its stub's size counts against what it frees, and
 * whether the body asks for the one-hour cache sets the price of the re-write.
 */
export function gateInputOf(
  body: Uint8Array,
  index: TranscriptIndex,
  span: PlannedSpan,
  estimate: { readonly tokensPerByte: number; readonly spansDir: string; readonly turnsSoFar: number; readonly horizon?: number },
): GateInput {
  const stub = spanStubMessage(freezeSpan(span), estimate.spansDir);
  return shedGateInput(index, span, {
    tokensPerByte: estimate.tokensPerByte,
    stubBytes: stub.length,
    turnsSoFar: estimate.turnsSoFar,
    oneHourCache: asksOneHourCache(body),
    ...(estimate.horizon === undefined ? {} : { horizon: estimate.horizon }),
  });
}
