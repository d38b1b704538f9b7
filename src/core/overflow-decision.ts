/**
 * Whether an overflow latches an epoch, of either kind: the API refused a request as too long,
 * and ctxshed may latch at once and send the rewritten request once more (docs/rescue.md and
 * docs/shed.md, "Rescue on overflow"). A pure decision, beside decide-epoch.ts, with a different
 * rule:
 *
 * 1. The threshold and the staleness rule do not apply: the reading is of this very request,
 *    which carried every epoch there was, and it is over the limit, not merely over a threshold.
 * 2. What the epoch takes out must bring the request under the limit, estimated by the kind
 *    (core/epochs/) with this request's own tokens per byte. The gain rule of threshold latches is
 *    replaced by this one: an epoch that frees something but not enough costs a cache re-write and
 *    a second refusal, and the client then compacts anyway. What frees nothing is never enough.
 * 3. A kind that weighs the burst gate (spans) weighs it at the refusal's fullness (its tokens ÷
 *    the limit, over 1), and records it: a take that frees anything is then past GATE_CEILING, so
 *    the gate latches, and records `forcedAt` exactly when the burst would not have paid back. The
 *    gate does not hold it back: its alternative, reading the cache on, is gone once the API refuses.
 */
import { decideBurst, type GateDecision, type GateInput } from './break-even.js';

/** What an epoch of one kind would take out of a refused request, or why it has nothing. */
export type OverflowTake<C> =
  | { readonly kind: 'none'; readonly detail?: string }
  | {
      readonly kind: 'some';
      /** The kind's own choice, handed back to it to make the epoch (core/epochs/epoch-planner.ts). */
      readonly choice: C;
      /** The tokens it is estimated to free, with the refused request's own tokens per byte. */
      readonly freedTokens: number;
      /** The burst gate's input for it, when the kind weighs the gate (its fullness is replaced). */
      readonly gate?: GateInput;
    };

/** Everything the decision looks at. */
export interface OverflowInput<C> {
  /** The prompt's tokens as the API's error counted them. */
  readonly tokens: number;
  /** The most tokens the retry may carry: the maximum the error named, else the window. */
  readonly limit: number;
  readonly take: OverflowTake<C>;
}

/** The decision, with what it expects the retry to weigh. */
export type OverflowDecision<C> =
  | { readonly latch: false; readonly why: 'nothing_new' | 'not_enough'; readonly estimatedTokens?: number; readonly detail?: string }
  | { readonly latch: true; readonly choice: C; readonly gate?: GateDecision; readonly estimatedTokensFreed: number; readonly estimatedTokens: number };

/** Decides whether the overflow latches the epoch the take describes, with the gate's figures to record. */
export function decideOverflow<C>(input: OverflowInput<C>): OverflowDecision<C> {
  const { take } = input;
  if (take.kind === 'none') return { latch: false, why: 'nothing_new', ...(take.detail === undefined ? {} : { detail: take.detail }) };
  const estimatedTokensFreed = Math.max(0, take.freedTokens);
  const estimatedTokens = input.tokens - estimatedTokensFreed;
  // An epoch that frees nothing is never enough, whatever the refusal's count says.
  if (estimatedTokensFreed === 0 || estimatedTokens > input.limit) return { latch: false, why: 'not_enough', estimatedTokens };
  if (take.gate === undefined) return { latch: true, choice: take.choice, estimatedTokensFreed, estimatedTokens };
  const fullness = input.limit > 0 ? input.tokens / input.limit : 0;
  const gate = decideBurst({ ...take.gate, fullness });
  // Only a refusal counting at most 85% of its own maximum leaves the gate shut (a malformed one).
  if (!gate.latch) return { latch: false, why: 'not_enough', estimatedTokens };
  return { latch: true, choice: take.choice, gate, estimatedTokensFreed, estimatedTokens };
}
