/**
 * Shed mode, the recent window by token budget (docs/shed.md, "The recent window"): whatever the
 * session and the budget, the span never splits a tool pair, every pin in it is hoisted, a
 * restore's answer that is still recent is never in it, and near the window the plan brings the
 * request under the limit whenever a span planned down to the floor could.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GOAL_MARKER, type PlannedSpan } from '../src/core/shed/shed-types.js';
import { indexTranscript } from '../src/core/messages/transcript-index.js';
import { planShed } from '../src/core/shed/plan-span.js';
import { planShedToFit } from '../src/core/shed/plan-to-fit.js';
import { readMessagesFacts } from '../src/core/shed/message-facts.js';
import { SPAN_STUB_TOKENS_PER_BYTE } from '../src/core/shed/span-stub.js';
import { sha256 } from './support/sha256.js';
// The kinds' registry names the folders whose files are stored texts (core/stored-files.ts); the core's entry loads it.
import '../src/core/epochs/kind-info.js';

type Message = { readonly role: string; readonly content: unknown };
type Step = { kind: 'read' | 'restore' | 'span_read'; bytes: number } | { kind: 'prompt'; pinned: boolean } | { kind: 'notice' };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('read' as const), bytes: fc.integer({ min: 10, max: 6000 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('restore' as const, 'span_read' as const), bytes: fc.integer({ min: 10, max: 12_000 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('prompt' as const), pinned: fc.boolean() }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'notice' as const }) },
);

/** A session from steps: tool turns (some restoring ctxshed's text), prompts (some pinned), system notices. */
function sessionOf(steps: readonly Step[]): Message[] {
  const messages: Message[] = [{ role: 'user', content: 'start' }];
  steps.forEach((step, i) => {
    const id = `t${i}`;
    switch (step.kind) {
      case 'read':
      case 'restore':
      case 'span_read': {
        const name = step.kind === 'restore' ? 'mcp__ctxshed__restore' : 'Read';
        const input =
          step.kind === 'restore' ? { handle: 'a'.repeat(64) } : { file_path: step.kind === 'span_read' ? `/s/spans/${'b'.repeat(64)}.md` : `/src/${id}.ts` };
        messages.push({ role: 'assistant', content: [{ type: 'tool_use', id, name, input }] });
        messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'x'.repeat(step.bytes) }] });
        break;
      }
      case 'prompt':
        messages.push({ role: 'assistant', content: [{ type: 'text', text: `done ${i}` }] });
        messages.push({ role: 'user', content: step.pinned ? `${GOAL_MARKER} goal ${i}` : `next ${i}` });
        break;
      case 'notice':
        // A system message follows a user turn and precedes an assistant turn.
        if (messages[messages.length - 1]!.role === 'user') messages.push({ role: 'system', content: `notice ${i}` });
        break;
    }
  });
  messages.push({ role: 'assistant', content: [{ type: 'text', text: 'end' }] });
  return messages;
}

const bodyOf = (messages: readonly Message[]): Uint8Array => new TextEncoder().encode(JSON.stringify({ model: 'claude-sonnet-4-5', messages }));

function facts(body: Uint8Array) {
  const indexed = indexTranscript(body);
  if (indexed.kind === 'failed') throw new Error(indexed.reason);
  return { index: indexed.index, facts: readMessagesFacts(body, indexed.index) };
}

const arb = fc.record({ steps: fc.array(stepArb, { minLength: 1, maxLength: 30 }), budget: fc.integer({ min: 0, max: 8000 }) });

describe('planShed with a recent window by token budget', () => {
  it("should never split a tool pair, hoist every pin, and never shed a restore's answer that is still recent", () => {
    let planned = 0;
    fc.assert(
      fc.property(arb, ({ steps, budget }) => {
        const body = bodyOf(sessionOf(steps));
        const plan = planShed(body, [], { readFacts: readMessagesFacts, sha256, recentTokens: budget });
        if (plan.kind === 'none') return;
        planned++;
        const span: PlannedSpan = plan.span;
        const { index, facts: f } = facts(body);
        const inSpan = (i: number): boolean => i >= span.first && i <= span.last;
        // Tool pairs: a use and its result are both in the span or both out of it.
        const useAt = new Map<string, number>();
        for (const [i, m] of f.entries()) for (const id of m.toolUseIds) useAt.set(id, i);
        for (const [i, m] of f.entries()) for (const id of m.toolResultIds) expect(inSpan(useAt.get(id)!)).toBe(inSpan(i));
        // Pins: every pinned text of the span is in its stub's pins.
        const pinned = sessionOf(steps).flatMap((m, i) => (inSpan(i) && typeof m.content === 'string' && m.content.includes(GOAL_MARKER) ? [m.content] : []));
        expect(span.pins).toEqual(pinned);
        // Restores: an answer with no more than the budget after it is recent, never shed.
        const end = index.messages[index.messages.length - 1]!.end;
        f.forEach((m, i) => {
          const next = index.messages[i + 1];
          const after = next === undefined ? 0 : end - next.start;
          if (m.restores && after * SPAN_STUB_TOKENS_PER_BYTE <= budget) expect(inSpan(i)).toBe(false);
        });
      }),
      { numRuns: 300 },
    );
    expect(planned).toBeGreaterThan(50);
  });

  it('should bring the request under the limit near the window whenever the span planned down to the floor could', () => {
    fc.assert(
      fc.property(arb, fc.integer({ min: 1000, max: 40_000 }), fc.integer({ min: 0, max: 3000 }), ({ steps, budget }, limit, floor) => {
        const body = bodyOf(sessionOf(steps));
        const contextTokens = Math.round(body.length * 0.3) + 1000;
        const target = { contextTokens, limit, tokensPerByte: 0.3, floorTokens: Math.min(floor, budget), spansDir: '/s' };
        const fitted = planShedToFit(body, [], { readFacts: readMessagesFacts, sha256, recentTokens: budget }, target);
        const tight = planShedToFit(body, [], { readFacts: readMessagesFacts, sha256, recentTokens: target.floorTokens }, target);
        const couldFit = tight.kind === 'planned' && tight.estimatedTokens <= limit;
        if (couldFit) {
          expect(fitted.kind).toBe('planned');
          if (fitted.kind === 'planned') {
            expect(fitted.estimatedTokens).toBeLessThanOrEqual(limit);
            expect(fitted.short).toBeUndefined();
          }
        }
        if (fitted.kind === 'planned' && fitted.short !== undefined) expect(couldFit).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
