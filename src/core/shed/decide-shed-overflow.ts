/**
 * Whether an overflow latches a shed epoch (docs/shed.md, "Rescue on overflow"): the API refused
 * a shed mode conversation's request as too long. The rule is rescue's (core/overflow-decision.ts):
 * the threshold, the staleness rule and the gain rule do not apply, and the span must bring the
 * request under the limit, estimated with this request's own tokens per byte.
 *
 * The burst gate does not hold it back: its alternative, reading the cache on, no longer exists
 * once the API refuses the request. The gate is weighed all the same, with the refusal's fullness
 * (its tokens ÷ the limit, over 1): a span that frees anything is then past GATE_CEILING, so the
 * gate latches, and records `forcedAt` exactly when the burst would not have paid back.
 */
import { decideBurst, type GateDecision, type GateInput } from './break-even.js';

/** Everything the decision looks at. */
export interface ShedOverflowInput {
  /** The prompt's tokens as the API's error counted them. */
  readonly tokens: number;
  /** The most tokens the retry may carry: the maximum the error named, else the window. */
  readonly limit: number;
  /**
   * The gate's input for the planned span, estimated with the refused request's tokens per byte
   * (gate-input.ts): its `droppedCachedTokens` is what the span less its stub frees. Its
   * `fullness` is replaced by the refusal's.
   */
  readonly gate: GateInput;
}

/** The decision, with what it expects the retry to weigh. */
export type ShedOverflowDecision =
  | { readonly latch: false; readonly why: 'not_enough'; readonly estimatedTokens: number }
  | { readonly latch: true; readonly gate: GateDecision; readonly estimatedTokensFreed: number; readonly estimatedTokens: number };

/** Decides whether the overflow latches the planned span, with the gate's figures to record. */
export function decideShedOverflow(input: ShedOverflowInput): ShedOverflowDecision {
  const estimatedTokensFreed = Math.max(0, input.gate.droppedCachedTokens);
  const estimatedTokens = input.tokens - estimatedTokensFreed;
  // A span that frees nothing is never enough, whatever the refusal's count says.
  if (estimatedTokensFreed === 0 || estimatedTokens > input.limit) return { latch: false, why: 'not_enough', estimatedTokens };
  const fullness = input.limit > 0 ? input.tokens / input.limit : 0;
  const gate = decideBurst({ ...input.gate, fullness });
  // Only a refusal counting at most 85% of its own maximum leaves the gate shut (a malformed one).
  if (!gate.latch) return { latch: false, why: 'not_enough', estimatedTokens };
  return { latch: true, gate, estimatedTokensFreed, estimatedTokens };
}
