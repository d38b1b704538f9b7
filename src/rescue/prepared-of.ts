/**
 * The engine's answers (`Prepared`, engine-types.ts) as every step builds them: one constructor per
 * outcome, from what the steps before it found; and the few facts a consumer reads of any outcome,
 * each a switch the compiler proves exhaustive.
 */
import type { EpochOutcome, LatchHold, PassthroughReason, Refault, SkippedBlock, SkippedSpan } from '../core/index.js';
import type { ConversationView } from './conversation-table.js';
import type { ClassifierReport, Held, LatchNote, PassedThrough, Prepared, PreparedFacts, Rewritten, RewritePath } from './engine-types.js';
import type { RequestMeta } from './request-meta.js';

/** What the steps before the answer found, each once it ran: the conversation, the latch (its note), the apply. */
export type StepFacts = StepFields & LatchNote;

/** The steps' findings besides the latch's note. */
export interface StepFields {
  readonly key?: string;
  readonly conversation?: ConversationView;
  readonly epochs?: number;
  readonly stateFailed?: true;
  readonly classifier?: ClassifierReport;
  readonly refaults?: readonly Refault[];
  readonly rewritePath?: RewritePath;
  readonly skipped?: readonly (SkippedBlock | SkippedSpan)[];
  /** Answers sent as a pointer to an earlier copy of their text (rescue/apply-repeats.ts). */
  readonly repeats?: number;
}

/** An apply's body, as the core's outcome gives it. */
type AppliedBody = Extract<EpochOutcome<SkippedBlock | SkippedSpan>, { kind: 'applied' }>;

/**
 * The input bytes unchanged, with a reason from the closed list (core/passthrough-reasons.ts): held
 * when the latch step said why it latched nothing, else a pass-through.
 */
export function passthroughOf(body: Uint8Array, meta: RequestMeta, reason: PassthroughReason, detail: string, facts: StepFacts = {}): PassedThrough | Held {
  const shared = { ...factsOf(body, meta, facts), reason, detail, ...(facts.skipped === undefined ? {} : { skipped: facts.skipped }) };
  if (facts.hold !== undefined) return { outcome: 'held', ...shared, hold: facts.hold };
  return { outcome: 'passthrough', ...shared, ...(facts.latched === undefined ? {} : { latched: facts.latched }) };
}

/** The body with the conversation's epochs applied; only a request that removed or kept a frozen thinking block says so. */
export function rewrittenOf(applied: AppliedBody, meta: RequestMeta, facts: StepFacts): Rewritten {
  return {
    outcome: 'rewritten',
    ...factsOf(applied.body, meta, facts),
    rescued: applied.stubs,
    bytesElided: applied.bytesTaken,
    skipped: applied.skipped,
    ...(facts.repeats === undefined ? {} : { repeats: facts.repeats }),
    ...noteOf(facts),
    ...(applied.thinkingRemoved === 0 ? {} : { thinkingRemoved: applied.thinkingRemoved }),
    ...(applied.thinkingSkipped.length === 0 ? {} : { thinkingSkipped: applied.thinkingSkipped }),
  };
}

// The latch's note alone, as the step gave it: one of the two, or neither.
function noteOf(facts: LatchNote): LatchNote {
  if (facts.latched !== undefined) return { latched: facts.latched };
  return facts.hold === undefined ? {} : { hold: facts.hold };
}

// What every outcome carries: the request's facts, and what the steps found of its conversation.
function factsOf(body: Uint8Array, meta: RequestMeta, facts: StepFacts): PreparedFacts {
  return {
    body,
    route: meta.route,
    window: meta.window,
    agentId: meta.agentId,
    ...(meta.requestClass === undefined ? {} : { requestClass: meta.requestClass }),
    ...(facts.key === undefined ? {} : { key: facts.key }),
    ...(facts.conversation === undefined ? {} : { conversation: facts.conversation }),
    epochs: facts.epochs ?? 0,
    ...(facts.stateFailed === undefined ? {} : { stateFailed: facts.stateFailed }),
    ...(facts.classifier === undefined ? {} : { classifier: facts.classifier }),
    ...(facts.refaults === undefined ? {} : { refaults: facts.refaults }),
    ...(facts.rewritePath === undefined ? {} : { rewritePath: facts.rewritePath }),
  };
}

/** The epoch the request latched: a pass-through (whose apply failed after) or a rewrite may have one. */
export function latchedOf(prepared: Prepared): number | undefined {
  switch (prepared.outcome) {
    case 'passthrough':
    case 'rewritten':
      return prepared.latched;
    case 'held':
      return undefined;
    default:
      return unreachable(prepared);
  }
}

/** Why a request over the threshold latched nothing: a hold says, and a rewrite may. */
export function latchHoldOf(prepared: Prepared): LatchHold | undefined {
  switch (prepared.outcome) {
    case 'held':
    case 'rewritten':
      return prepared.hold;
    case 'passthrough':
      return undefined;
    default:
      return unreachable(prepared);
  }
}

/** Why the input bytes went through unchanged; `undefined` for a rewrite. */
export function passthroughReasonOf(prepared: Prepared): PassthroughReason | undefined {
  switch (prepared.outcome) {
    case 'passthrough':
    case 'held':
      return prepared.reason;
    case 'rewritten':
      return undefined;
    default:
      return unreachable(prepared);
  }
}

/** The stubs in the body sent and the bytes they stand for: none unless rewritten. */
export function stubsOf(prepared: Prepared): { readonly rescued: number; readonly bytesElided: number } {
  switch (prepared.outcome) {
    case 'rewritten':
      return { rescued: prepared.rescued, bytesElided: prepared.bytesElided };
    case 'passthrough':
    case 'held':
      return { rescued: 0, bytesElided: 0 };
    default:
      return unreachable(prepared);
  }
}

/** The compiler's proof that a switch on `outcome` took every variant. */
export function unreachable(prepared: never): never {
  throw new Error(`unknown outcome of a prepared request: ${String((prepared as { outcome?: unknown }).outcome)}`);
}
