/**
 * Near the window, a shed epoch must bring the request under it (docs/shed.md, "Never past the
 * window"). From GATE_CEILING on, and on an overflow, the span planned with the policy's recent
 * window is weighed against the limit; when the request would still be over it, the span is
 * planned again with the recent window cut to the policy's floor, and the larger span is taken.
 * When even that leaves the request over the limit, the plan says so with a closed reason
 * (SHED_SHORT_REASONS): the epoch still sheds what it can, since the alternative is the API's
 * refusal and the client's compaction.
 */
import { planShed, type ShedPlan, type ShedPlanOptions } from './plan-span.js';
import { freezeSpan } from './plan-span.js';
import { spanStubMessage } from './span-stub.js';
import type { FrozenSpan, PlannedSpan, ShedFit, ShedShortReason } from './shed-types.js';

/** What the weighing needs: the request's tokens, the most it may carry, and how to count bytes. */
export interface FitTarget {
  /** The request's tokens: the reading's, or the refusal's count. */
  readonly contextTokens: number;
  /** The most tokens the request may carry: the window, or the maximum a refusal named. */
  readonly limit: number;
  /** The conversation's tokens per body byte. */
  readonly tokensPerByte: number;
  /** The recent window's floor, in tokens: how far the span may grow into it. */
  readonly floorTokens: number;
  /** Where the stubs name the spans' files (the stub's bytes count against the gain). */
  readonly spansDir: string;
}

/** The plan, with the budget it used and what the request is estimated to weigh after it. */
export type FittedPlan =
  | { readonly kind: 'none'; readonly plan: Extract<ShedPlan, { kind: 'none' }> }
  | {
      readonly kind: 'planned';
      readonly span: PlannedSpan;
      readonly recentTokens: number;
      readonly estimatedTokens: number;
      readonly short?: ShedShortReason;
      /** Present when the span takes out what the window forces out of the working set (brought back since the latest epoch, or twice). */
      readonly forcedWorkingSet?: true;
      /**
       * Present when the plan is short of the limit and what was brought back since the person's
       * latest prompt, which no epoch takes, is what stays: the epoch holds (`working_set_exceeds_window`).
       */
      readonly heldByWorkingSet?: true;
    };

/** The messages an epoch never takes (what was brought back since the person's latest prompt): first and last, -1 when none. */
export interface HeldMessages {
  readonly from: number;
  readonly to: number;
}

/**
 * Plans with `options.recentTokens`, then, when `target` is given and the request would stay over
 * its limit, with the floor. Both plans leave the working set (`options.keepFrom` to `keepTo`)
 * alone; when neither fits, a span that leaves only `held` alone (what was brought back since the
 * person's latest prompt, which no epoch takes: issue 39) is planned too, and taken when it brings
 * the request under the limit or, failing that, nearer it than the span around the whole working
 * set: the window forces the rest of the working set out (core/epochs/working-set.ts). A plan
 * still short of the limit while something is held says so (`heldByWorkingSet`). Pure; never
 * throws (planShed does not).
 */
export function planShedToFit(
  body: Uint8Array,
  frozen: readonly FrozenSpan[],
  options: ShedPlanOptions & { readonly recentTokens: number; readonly held?: HeldMessages },
  target?: FitTarget,
): FittedPlan {
  const around = planAround(body, frozen, options, target);
  if (target === undefined || (options.keepFrom ?? -1) < 0) return around;
  const held = options.held ?? NOTHING_HELD;
  if (around.kind === 'planned' && around.short === undefined) return around;
  const sameAsAround = held.from === options.keepFrom && held.to === (options.keepTo ?? -1);
  const forced = sameAsAround ? around : planAround(body, frozen, { ...options, keepFrom: held.from, keepTo: held.to }, target);
  if (sameAsAround || forced.kind !== 'planned') return heldIfShort(around, held);
  // Neither fits: the one that comes nearer the limit, since the request is over it either way.
  if (forced.short !== undefined && around.kind === 'planned' && around.estimatedTokens <= forced.estimatedTokens) return heldIfShort(around, held);
  return heldIfShort({ ...forced, forcedWorkingSet: true }, held);
}

const NOTHING_HELD: HeldMessages = { from: -1, to: -1 };

function heldIfShort(fitted: FittedPlan, held: HeldMessages): FittedPlan {
  return fitted.kind === 'planned' && fitted.short !== undefined && held.from >= 0 ? { ...fitted, heldByWorkingSet: true } : fitted;
}

function planAround(
  body: Uint8Array,
  frozen: readonly FrozenSpan[],
  options: ShedPlanOptions & { readonly recentTokens: number },
  target?: FitTarget,
): FittedPlan {
  const plan = planShed(body, frozen, options);
  const first = weigh(plan, options.recentTokens, target);
  if (target === undefined || (first.kind === 'planned' && first.estimatedTokens <= target.limit)) return first;
  if (options.recentTokens <= target.floorTokens) return short(first);
  const tight = weigh(planShed(body, frozen, { ...options, recentTokens: target.floorTokens }), target.floorTokens, target);
  if (tight.kind === 'none') return short(first);
  if (first.kind === 'planned' && first.estimatedTokens <= tight.estimatedTokens) return short(first);
  return tight.estimatedTokens <= target.limit ? tight : short(tight);
}

function weigh(plan: ShedPlan, recentTokens: number, target: FitTarget | undefined): FittedPlan {
  if (plan.kind === 'none') return { kind: 'none', plan };
  const stubBytes = target === undefined ? 0 : spanStubMessage(freezeSpan(plan.span), target.spansDir).length;
  const freed = target === undefined ? 0 : Math.max(0, Math.round((plan.span.bytes - stubBytes) * target.tokensPerByte));
  return { kind: 'planned', span: plan.span, recentTokens, estimatedTokens: target === undefined ? 0 : target.contextTokens - freed };
}

function short(fitted: FittedPlan): FittedPlan {
  return fitted.kind === 'none' ? fitted : { ...fitted, short: 'kept_over_window' };
}

/** The figures an epoch records of a fitted plan (core/epochs/spans/spans-latch.ts). */
export function shedFitOf(fitted: Extract<FittedPlan, { kind: 'planned' }>, limit: number): ShedFit {
  return { recentTokens: fitted.recentTokens, estimatedTokens: fitted.estimatedTokens, limit, ...(fitted.short === undefined ? {} : { short: fitted.short }) };
}
