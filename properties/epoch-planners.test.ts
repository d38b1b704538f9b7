/**
 * Both epoch kinds behind one interface (core/epochs/): over generated conversations and any
 * reading, the threshold decision (core/decide/decide-epoch.ts) on a kind's take latches exactly what the
 * kind planned, and the epoch it makes (`epochOf`) freezes that and names its files; the overflow
 * decision (core/overflow-decision.ts) latches exactly when the take's tokens bring the refused
 * request under the limit.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MESSAGES_API } from '../src/core/dialects/messages.js';
import { decideEpoch } from '../src/core/decide/decide-epoch.js';
import { decideOverflow } from '../src/core/overflow-decision.js';
import { freezeBlock } from '../src/core/plan-elision.js';
import { freezeSpan } from '../src/core/shed/plan-span.js';
import { indexTranscript } from '../src/core/messages/transcript-index.js';
import { NO_ITEMS } from '../src/core/epochs/frozen-items.js';
import { spansLatch } from '../src/core/epochs/spans/spans-latch.js';
import { toolResultsLatch } from '../src/core/epochs/tool-results/tool-results-latch.js';
import type { EpochAsk, EpochPlanner } from '../src/core/epochs/epoch-planner.js';
import type { FullnessReading } from '../src/core/fullness-reading.js';
import { readMessagesFacts } from '../src/core/shed/message-facts.js';
import { conversationArb, type ClientRequest } from './arbitraries/index.js';
import { elidedDirArb, policyArb } from './support/rewrite-support.js';
import { shedPolicyArb, spansDirArb } from './support/shed-support.js';
import { sha256 } from './support/sha256.js';
import type { FrozenSpan } from '../src/core/shed/shed-types.js';

/** A reading of a request: how full, of which window, against which threshold. */
const judgeArb = fc.record({
  fullness: fc.double({ min: 0.5, max: 1.2, noNaN: true }),
  tokensPerByte: fc.double({ min: 0.05, max: 0.5, noNaN: true }),
  threshold: fc.double({ min: 0.5, max: 0.95, noNaN: true }),
  minGainFraction: fc.double({ min: 0, max: 0.3, noNaN: true }),
  horizon: fc.option(fc.nat(80), { nil: undefined }),
  over: fc.double({ min: 1, max: 1.3, noNaN: true }),
});

type Judge = typeof judgeArb extends fc.Arbitrary<infer J> ? J : never;

function askOf(request: ClientRequest, judge: Judge): { ask: EpochAsk; reading: FullnessReading } | undefined {
  const outcome = indexTranscript(request.bytes);
  if (outcome.kind !== 'indexed') return undefined;
  const window = Math.max(1, Math.round(request.bytes.length * judge.tokensPerByte));
  const reading = { contextTokens: Math.round(judge.fullness * window), window, epochsApplied: 0, requestBytes: request.bytes.length };
  return {
    ask: {
      readFacts: readMessagesFacts,
      modelCalls: MESSAGES_API.modelCalls(outcome.index),
      body: request.bytes,
      index: outcome.index,
      reading,
      items: NO_ITEMS,
    },
    reading,
  };
}

/** The threshold decision on the planner's take, and the overflow decision on its overflow take. */
function decideBoth<C>(planner: EpochPlanner<C>, ask: EpochAsk, reading: FullnessReading, judge: Judge) {
  const take = planner.take(ask);
  const decision = decideEpoch({
    reading,
    thresholds: { threshold: judge.threshold },
    epochCount: 0,
    minGainFraction: judge.minGainFraction,
    take: () => take,
  });
  const tokens = Math.round(reading.window * judge.over);
  const overflowAsk = { ...ask, tokens, limit: reading.window, window: reading.window, sentBytes: reading.requestBytes };
  const overflowTake = planner.takeOnOverflow(overflowAsk);
  const overflow = decideOverflow({ tokens, limit: reading.window, take: overflowTake });
  return { take, decision, overflowTake, overflow, tokens };
}

describe('the epoch planners', () => {
  it('should latch, on a threshold and on an overflow, exactly what each kind planned, and freeze it in the epoch', () => {
    fc.assert(
      fc.property(
        conversationArb(8, 3),
        fc.nat(),
        judgeArb,
        policyArb,
        elidedDirArb,
        shedPolicyArb,
        spansDirArb,
        (requests, x, judge, policy, elidedDir, shedPolicy, spansDir) => {
          const asked = askOf(requests[x % requests.length]!, judge);
          if (asked === undefined) return;
          const { ask, reading } = asked;

          // The tool-result kind: the decision's blocks are the plan's, and the epoch freezes them.
          const tools = toolResultsLatch({ policy, elidedDir, sha256 });
          const t = decideBoth(tools, ask, reading, judge);
          if (t.decision.kind === 'latch') {
            expect(t.take.kind).toBe('blocks');
            const plan = t.take.kind === 'blocks' ? t.take.plan : [];
            expect(t.decision.added).toEqual(plan);
            const part = tools.epochOf(tools.chosen(t.decision), t.decision.gate);
            expect(part.tag === 'tool_results' && part.items).toEqual(plan.map(freezeBlock));
            expect(part.originals.filter((f) => f.ext === 'txt').map((f) => f.sha256)).toEqual(plan.map((b) => b.sha256));
            expect(part.originals.every((f) => f.folder === 'elided')).toBe(true);
          }
          if (t.overflow.latch) {
            expect(t.overflowTake.kind === 'some' && t.tokens - t.overflowTake.freedTokens).toBeLessThanOrEqual(reading.window);
            expect(t.overflow.choice.added.length).toBeGreaterThan(0);
          } else if (t.overflowTake.kind === 'some' && t.overflowTake.freedTokens > 0) {
            expect(t.tokens - t.overflowTake.freedTokens).toBeGreaterThan(reading.window);
          }

          // The span kind: the decision's span is the take's, and the epoch sheds it and names its file.
          const spans = spansLatch({ policy: shedPolicy, spansDir, sha256, ...(judge.horizon === undefined ? {} : { horizon: judge.horizon }) });
          const s = decideBoth(spans, ask, reading, judge);
          // No span: nothing latches, and a hold names the span refusal (under the threshold, nothing is decided).
          if (s.take.kind === 'none') expect(s.decision.kind === 'idle' || (s.decision.kind === 'hold' && s.decision.reason === s.take.reason)).toBe(true);
          if (s.decision.kind === 'latch') {
            expect(s.take.kind).toBe('span');
            const span = s.take.kind === 'span' ? s.take.span : undefined;
            expect(s.decision.span).toBe(span);
            expect(s.decision.gate?.latch).toBe(true);
            const part = spans.epochOf(spans.chosen(s.decision), s.decision.gate);
            expect(part.tag === 'span' && part.items).toEqual([freezeSpan(span!)]);
            expect(part.originals.map((f) => [f.folder, f.sha256, f.ext])).toEqual([
              ['span', span!.sha256, 'json'],
              ['span', span!.sha256, 'md'],
            ]);
          }
          if (s.overflow.latch) {
            expect(s.overflowTake.kind === 'some' && s.tokens - s.overflowTake.freedTokens).toBeLessThanOrEqual(reading.window);
            const part = spans.epochOf(s.overflow.choice, s.overflow.gate);
            expect(part.tag === 'span' && (part.items[0] as FrozenSpan).sha256).toBe(s.overflow.choice.span.sha256);
            expect(s.overflow.gate?.latch).toBe(true);
          }
        },
      ),
    );
  });
});
