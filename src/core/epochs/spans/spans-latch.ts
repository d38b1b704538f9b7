/**
 * The span kind's latch side (shed mode, docs/shed.md): an epoch sheds a span of whole messages,
 * replaced by one stub message that names its files. The span is weighed by the burst gate always,
 * on a threshold latch (core/shed/weigh-span.ts) and on an overflow (at the refusal's fullness).
 */
import type { OverflowTake } from '../../overflow-decision.js';
import type { EpochPart } from '../../plan-record.js';
import type { GateDecision } from '../../break-even.js';
import type { Sha256 } from '../../ports.js';
import { freezeSpanAtLatch } from '../../shed/plan-span.js';
import { readPagesOf } from '../../shed/read-pages.js';
import { renderSpanMarkdown } from '../../shed/render-span-markdown.js';
import { planShedToFit, shedFitOf, type HeldMessages } from '../../shed/plan-to-fit.js';
import { recentBudgetTokens, SHED_POLICY_NAME, SHED_POLICY_VERSION, type PlannedSpan, type ShedFit, type ShedPolicy } from '../../shed/shed-types.js';
import { gateInputOf, weighSpan } from '../../shed/weigh-span.js';
import type { EpochPlanner, OverflowAsk } from '../epoch-planner.js';
import { bytesWithSpans, pressedReading } from '../request-tokens.js';
import { repeatGroupsOfAsk, repeatSavings } from '../repeat-groups.js';
import { broughtBackIn, workingSetOfAsk, type WorkingSet } from '../working-set.js';
import type { FrozenSpan } from '../../shed/shed-types.js';
import { SPAN_INFO } from './info.js';

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
  /** Where repeats' pointers name their files (the request is weighed with them); absent: `elided` beside `spansDir`. */
  readonly elidedDir?: string;
  readonly sha256: Sha256;
  readonly horizon?: number;
}

/** Where repeats' pointers name their files (core/repeats/): the settings', else `elided/` beside `spans/`. */
function elidedDirOf(settings: SpansSettings): string {
  return settings.elidedDir ?? settings.spansDir.replace(/spans$/, 'elided');
}

/** The span kind's planner. */
export function spansLatch(settings: SpansSettings): EpochPlanner<SpanLatchChoice> {
  const { policy, spansDir, sha256, horizon } = settings;
  return {
    kind: 'span',
    take: (ask) => {
      const set = workingSetOfAsk(ask);
      const together = repeatGroupsOfAsk(ask);
      const shedTo = ask.items.span.at(-1)?.last ?? 0;
      const repeats = repeatSavings(together, (g) => g.from <= shedTo, elidedDirOf(settings));
      const take = weighSpan({
        body: ask.body,
        index: ask.index,
        spans: ask.items.span,
        // What this request carries: the last reading grew by what was added since (request-tokens.ts), less what repeats save.
        reading: pressedReading(ask.reading, bytesWithSpans(ask.body, ask.items.span, spansDir) - repeats),
        sha256,
        readFacts: ask.readFacts,
        modelCalls: ask.modelCalls,
        policy,
        spansDir,
        ...(horizon === undefined ? {} : { horizon }),
        ...keptOf(set),
        together,
        broughtBack: (first, last) => broughtBackIn(set, first, last),
      });
      if (take.kind !== 'span') return take;
      // What of the span was brought back: an epoch is for new weight (core/decide/decide-epoch.ts).
      const broughtBack = broughtBackIn(set, take.span.first, take.span.last);
      const held = set.sincePrompt.calls.size > 0;
      return { ...take, ...(broughtBack > 0 ? { broughtBackBytes: broughtBack } : {}), ...(held ? { holdsWorkingSet: true } : {}) };
    },
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
  // Around the working set, unless only a span that takes its part the window may force out brings
  // the retry under the limit; never what was brought back since the person's latest prompt.
  const plan = planShedToFit(
    body,
    ask.items.span,
    {
      sha256,
      readFacts: ask.readFacts,
      recentTokens: recentBudgetTokens(policy, ask.window),
      index,
      ...keptOf(workingSetOfAsk(ask)),
      together: repeatGroupsOfAsk(ask),
    },
    target,
  );
  // No span to shed: every message that could go is shed already, or none may go (docs/reasons.md).
  if (plan.kind === 'none') return { kind: 'none', detail: `${plan.plan.reason}: ${plan.plan.detail}` };
  const gate = gateInputOf(body, index, plan.span, { tokensPerByte, spansDir, turnsSoFar: ask.modelCalls, ...(horizon === undefined ? {} : { horizon }) });
  const choice: SpanLatchChoice = { span: plan.span, recentTokens: plan.recentTokens, fit: shedFitOf(plan, limit) };
  return { kind: 'some', choice, freedTokens: gate.droppedCachedTokens, gate };
}

/** What a span leaves alone of a working set: all of it where it can, what came back since the person's latest prompt always. */
function keptOf(set: WorkingSet): { keepFrom: number; keepTo: number; held: HeldMessages } {
  const { sincePrompt } = set;
  return { keepFrom: set.firstMessage, keepTo: set.lastMessage, held: { from: sincePrompt.firstMessage, to: sincePrompt.lastMessage } };
}

function spanPart(choice: SpanLatchChoice, gate: GateDecision | undefined): EpochPart<FrozenSpan> {
  const { span, recentTokens, fit } = choice;
  const markdown = renderSpanMarkdown(span.text, span.sha256);
  return {
    tag: SPAN_INFO.tag,
    policy: { name: SHED_POLICY_NAME, version: SHED_POLICY_VERSION, keepRecent: 0, minBytes: 0, recentTokens },
    // The pages its `.md` is read in, named in the stub, so no Read of it is cut short (issue 39).
    items: [freezeSpanAtLatch(span, readPagesOf(markdown))],
    ...(gate === undefined ? {} : { gate }),
    ...(fit === undefined ? {} : { fit }),
    // The exact bytes, and their readable rendering beside them (docs/shed.md "Reading a span back").
    originals: [
      { folder: SPAN_INFO.originals, sha256: span.sha256, ext: 'json', bytes: span.text },
      { folder: SPAN_INFO.originals, sha256: span.sha256, ext: 'md', bytes: new TextEncoder().encode(markdown) },
    ],
  };
}
