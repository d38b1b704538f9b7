/**
 * The closed list of reasons a request over the threshold latched no epoch (docs/reasons.md,
 * "Why no epoch latched"). Not a pass-through: the request still carries the conversation's
 * earlier epochs. Each request that latched nothing while over the threshold names one in its
 * wire record's `hold`, so no refusal goes unexplained.
 */
import type { GateDecision } from '../break-even.js';
import { SHED_REFUSALS } from '../shed/shed-types.js';
import { WORKING_SET_HOLDS } from '../working-set-holds.js';

/** Reasons of either mode, then shed mode's span refusals (core/shed/shed-types.ts). */
export const HOLD_REASONS = {
  stale_reading:
    'The last reading came from a request that did not yet carry every epoch: it still shows the old size, and latching on it would churn. The next reading decides.',
  nothing_new: 'Rescue mode: no eligible block is left that the epochs have not frozen already.',
  gain_too_small: 'What the epoch would take out is estimated at less than the minimum gain (a tenth of the window by default): not worth a cache re-write.',
  labels_kept: 'With --labels model, the classifier kept so many of the blocks that the rest would free too little.',
  gate: 'The burst gate: the cache re-write would not pay back within the turns expected, and the window is not yet 85% full (shed mode always; rescue mode with --gate).',
  concurrent_latch:
    'Another request of the conversation (in this proxy or another one sharing the state directory) latched an epoch first; its epoch stands and this one is void.',
  mid_turn:
    "With --latch-at prompt, on a model that runs the prefix check: the newest message is not a person's prompt (tool results only, or a system message), so an epoch now would also remove the current turn's thinking; it waits for the next prompt, unless the window is 85% full.",
  empty_message:
    'On a model that runs the prefix check: the epoch would also remove the thinking blocks after its edit, and that would leave an assistant message with no content, which the API refuses; nothing latched.',
  state_unavailable: 'The state directory failed while latching; the request went out without a new epoch.',
  ...WORKING_SET_HOLDS,
  ...SHED_REFUSALS,
} as const;

/** Why a request over the threshold latched no epoch. */
export type HoldReason = keyof typeof HOLD_REASONS;

/** A hold and what it was about (the figures that decided it), for a person to read. */
export interface LatchHold {
  readonly reason: HoldReason;
  readonly detail: string;
  /** The burst gate's figures, when the gate was weighed (shed mode always, rescue mode with --gate). */
  readonly gate?: GateDecision;
  /** The span kind, when it planned a span: its bytes, and the bytes after it to the body's end (what the burst writes again). */
  readonly spanBytes?: number;
  readonly windowBytes?: number;
}

/** Whether `name` is one of the closed hold reasons (a wire line may hold anything). */
export function isHoldReason(name: unknown): name is HoldReason {
  return typeof name === 'string' && Object.hasOwn(HOLD_REASONS, name);
}
