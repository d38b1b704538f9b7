/**
 * The span kind's latch side (shed mode, docs/shed.md): an epoch sheds a span of whole messages,
 * replaced by one stub message that names its files. The span is weighed by the burst gate always,
 * on a threshold latch (core/shed/weigh-span.ts) and on an overflow (at the refusal's fullness).
 */
import type { OverflowTake } from '../../overflow-decision.js';
import type { SpanPart } from '../../plan-record.js';
import type { GateDecision } from '../../break-even.js';
import type { Sha256 } from '../../ports.js';
import { freezeSpan } from '../../shed/plan-span.js';
import { planShedToFit, shedFitOf } from '../../shed/plan-to-fit.js';
import { recentBudgetTokens, SHED_POLICY_NAME, SHED_POLICY_VERSION, type PlannedSpan, type ShedFit, type ShedPolicy } from '../../shed-types.js';
import { gateInputOf, weighSpan } from '../../shed/weigh-span.js';
import type { EpochPlanner, OverflowAsk } from '../epoch-planner.js';
import { bytesWithSpans, pressedReading } from '../request-tokens.js';
import { workingSetOfAsk } from '../working-set.js';

/** What a span epoch freezes: the span, the recent window's budget it was planned with, and near the window its fit. */
export interface SpanLatchChoice {
  readonly span: PlannedSpan;
  /** In tokens. */
  readonly recentTokens: number;
  /** Near the window or on an overflow: what the epoch expects the request to weigh (plan-to-fit.ts). */
  readonly fit?: ShedFit;
}

/** What the kind is set with: the policy, where the span files go, the hash, the gate's horizon. */
export interface SpansSettings {
  readonly policy: ShedPolicy;
  readonly spansDir: string;
  readonly sha256: Sha256;
  readonly horizon?: number;
}

/** The span kind's planner. */
export function spansLatch(settings: SpansSettings): EpochPlanner<SpanLatchChoice> {
  const { policy, spansDir, sha256, horizon } = settings;
  return {
    kind: 'span',
    take: (ask) =>
      weighSpan({
        body: ask.body,
        index: ask.index,
        spans: ask.items.span,
        // What this request carries: the last reading grew by what was added since (request-tokens.ts).
        reading: pressedReading(ask.reading, bytesWithSpans(ask.body, ask.items.span, spansDir)),
        sha256,
        readFacts: ask.readFacts,
        modelCalls: ask.modelCalls,
        policy,
        spansDir,
        ...(horizon === undefined ? {} : { horizon }),
        keepFrom: workingSetOfAsk(ask).firstMessage,
      }),
    chosen: (decision) => ({
      // A latching decision on a span take always carries its span (core/decide/decide-epoch.ts).
      span: decision.span!,
      recentTokens: decision.recentTokens ?? 0,
      ...(decision.fit === undefined ? {} : { fit: decision.fit }),
    }),
    takeOnOverflow: (ask) => spansOverflowTake(ask, settings),
    epochOf: (choice, gate) => spanPart(choice, gate),
  };
}

/**
 * The span a threshold latch would plan on this body, grown into the recent window down to its
 * floor to bring the retry under the limit, with the gate's input for it.
 */
function spansOverflowTake(ask: OverflowAsk, settings: SpansSettings): OverflowTake<SpanLatchChoice> {
  const { body, index, tokens, limit } = ask;
  const { policy, spansDir, sha256, horizon } = settings;
  // This request's own tokens per byte: the refusal counted the bytes that were sent.
  const tokensPerByte = ask.sentBytes > 0 ? tokens / ask.sentBytes : 0;
  const target = { contextTokens: tokens, limit, tokensPerByte, floorTokens: policy.recentFloorTokens, spansDir };
  // The span may grow into the recent window down to its floor to bring the retry under the limit.
  // Around the working set, unless only a span that takes it brings the retry under the limit.
  const keepFrom = workingSetOfAsk(ask).firstMessage;
  const plan = planShedToFit(
    body,
    ask.items.span,
    { sha256, readFacts: ask.readFacts, recentTokens: recentBudgetTokens(policy, ask.window), index, keepFrom },
    target,
  );
  // No span to shed: every message that could go is shed already, or none may go (docs/reasons.md).
  if (plan.kind === 'none') return { kind: 'none', detail: `${plan.plan.reason}: ${plan.plan.detail}` };
  const gate = gateInputOf(body, index, plan.span, { tokensPerByte, spansDir, turnsSoFar: ask.modelCalls, ...(horizon === undefined ? {} : { horizon }) });
  const choice: SpanLatchChoice = { span: plan.span, recentTokens: plan.recentTokens, fit: shedFitOf(plan, limit) };
  return { kind: 'some', choice, freedTokens: gate.droppedCachedTokens, gate };
}

function spanPart(choice: SpanLatchChoice, gate: GateDecision | undefined): SpanPart {
  const { span, recentTokens, fit } = choice;
  return {
    kind: 'span',
    policy: { name: SHED_POLICY_NAME, version: SHED_POLICY_VERSION, keepRecent: 0, minBytes: 0, recentTokens },
    span: freezeSpan(span),
    ...(gate === undefined ? {} : { gate }),
    ...(fit === undefined ? {} : { fit }),
    files: [],
    spans: [{ sha256: span.sha256, bytes: span.text }],
  };
}
