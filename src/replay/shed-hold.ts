/**
 * Why shed mode held back on a request that was over the threshold: the same steps, in the same
 * order, as the engine's shed latch (src/rescue/maybe-shed.ts), asked again from the outside so
 * that a replay can say where shed did nothing and why (the gate refusing, no span outside the
 * recent window, too small a gain). The engine decides; this only explains. Pure.
 */
import {
  asksOneHourCache,
  decideBurst,
  DEFAULT_MIN_GAIN_FRACTION,
  DEFAULT_SHED_POLICY,
  DEFAULT_TOKENS_PER_BYTE,
  freezeSpan,
  indexTranscript,
  planShed,
  shedGateInput,
  spanStubMessage,
  type FrozenSpan,
  type FullnessReading,
  type GateDecision,
  type Sha256,
  type ShedPolicy,
  type ShedRefusal,
} from '../core/index.js';

/** Why no shed epoch latched on a request over the threshold. */
export type ShedHold =
  /** The reading predates the conversation's last epoch (the engine waits for a fresh one). */
  | 'stale_reading'
  /** No span can be shed (docs/reasons.md, "Why nothing is shed"). */
  | ShedRefusal
  /** The span would free less than a tenth of the window. */
  | 'small_gain'
  /** The burst gate: the re-write would not pay back within the turns expected. */
  | 'gate';

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
}

/** Why the engine's shed latch held back on this request (call it only for a request over the threshold). */
export function whyNoShed(input: ShedHoldInput): ShedHoldOutcome {
  const { reading } = input;
  if (reading.epochsApplied < input.epochs) return { kind: 'held', why: 'stale_reading' };
  const indexed = indexTranscript(input.body);
  if (indexed.kind === 'failed') return { kind: 'held', why: 'unreadable_body' };
  const { index } = indexed;
  const plan = planShed(input.body, input.spans, { sha256: input.sha256, policy: input.policy ?? DEFAULT_SHED_POLICY, window: reading.window, index });
  if (plan.kind === 'none') return { kind: 'held', why: plan.reason };
  const stub = spanStubMessage(freezeSpan(plan.span), input.spansDir);
  const gateInput = shedGateInput(index, plan.span, {
    // As the engine estimates it (maybe-latch.ts `tokensPerByteOf`).
    tokensPerByte: reading.requestBytes > 0 ? reading.contextTokens / reading.requestBytes : DEFAULT_TOKENS_PER_BYTE,
    stubBytes: stub.length,
    oneHourCache: asksOneHourCache(input.body),
    ...(input.horizon === undefined ? {} : { horizon: input.horizon }),
  });
  const last = index.messages[index.messages.length - 1];
  const after = index.messages[plan.span.last + 1];
  const sizes = { spanBytes: plan.span.bytes, windowBytes: after === undefined || last === undefined ? 0 : last.end - after.start };
  if (gateInput.droppedCachedTokens < (input.minGainFraction ?? DEFAULT_MIN_GAIN_FRACTION) * reading.window) return { kind: 'held', why: 'small_gain', ...sizes };
  const gate = decideBurst(gateInput);
  if (!gate.latch) return { kind: 'held', why: 'gate', gate, ...sizes };
  return { kind: 'would_latch' };
}
