/** Shared arbitraries and helpers for the shed-mode properties. */
import fc from 'fast-check';
import { DEFAULT_SHED_POLICY, fixedRecentBudget, GOAL_MARKER, type FrozenSpan, type PlannedSpan, type ShedPolicy } from '../../src/core/shed/shed-types.js';
import { freezeSpan, planShed } from '../../src/core/shed/plan-span.js';
import { readMessagesFacts } from '../../src/core/shed/message-facts.js';
import { conversationSpecArb, growConversation, type ClientRequest, type ConversationSpec, type TurnSpec } from '../arbitraries/index.js';
import { sha256 } from './sha256.js';

/**
 * The default budget, or a smaller one (down to none: the last assistant message and what follows
 * it), so that more spans (and more epochs) are tried on the small generated bodies.
 */
export const shedPolicyArb: fc.Arbitrary<ShedPolicy> = fc.oneof(
  { weight: 1, arbitrary: fc.constant(DEFAULT_SHED_POLICY) },
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 2_000 }).map(fixedRecentBudget) },
);

/** State directories named in stubs: a plain one, one that needs JSON escapes, a short one. */
export const spansDirArb: fc.Arbitrary<string> = fc.constantFrom('/home/dev/.local/state/ctxshed/spans', '/tmp/ctx shed/ünï "q" \\ 😀/spans', '/s');

/** Where epochs latch: request positions (taken modulo the count, sorted, repeats allowed). */
export const latchPointsArb: fc.Arbitrary<number[]> = fc.array(fc.nat(), { minLength: 1, maxLength: 3 });

/** The spans of epochs latched at these requests, each planned after the ones before it. */
export function latchSpans(requests: readonly ClientRequest[], points: readonly number[], policy: ShedPolicy): { planned: PlannedSpan[]; at: number[] } {
  const planned: PlannedSpan[] = [];
  const at: number[] = [];
  for (const p of [...points].map((x) => x % requests.length).sort((a, b) => a - b)) {
    const plan = planShed(requests[p]!.bytes, planned.map(freezeSpan), { readFacts: readMessagesFacts, sha256, policy });
    if (plan.kind === 'planned') {
      planned.push(plan.span);
      at.push(p);
    }
  }
  return { planned, at };
}

/** The frozen records of planned spans. */
export function frozenSpans(planned: readonly PlannedSpan[]): FrozenSpan[] {
  return planned.map(freezeSpan);
}

/**
 * Conversations where some prompts and assistant texts carry the goal marker, at the start, in
 * the middle or at the end of the text.
 */
export function pinnedConversationArb(maxTurns = 8, minTurns = 3): fc.Arbitrary<ClientRequest[]> {
  return fc
    .record({ spec: conversationSpecArb(maxTurns, minTurns), marks: fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 20 }) })
    .map(({ spec, marks }) => growConversation(withPins(spec, marks)));
}

function withPins(spec: ConversationSpec, marks: readonly number[]): ConversationSpec {
  const pin = (text: string, mark: number | undefined): string =>
    mark === 0
      ? `${GOAL_MARKER} ${text}`
      : mark === 1
        ? `${text}\n${GOAL_MARKER} keep it`
        : mark === 2
          ? `${text.slice(0, 3)}${GOAL_MARKER}${text.slice(3)}`
          : text;
  const turns = spec.turns.map((turn, i): TurnSpec => {
    const mark = marks[i];
    const assistant = turn.assistant.text === undefined ? turn.assistant : { ...turn.assistant, text: pin(turn.assistant.text, mark) };
    if (turn.kind === 'chat' && turn.prompt.kind === 'string')
      return { ...turn, assistant, prompt: { kind: 'string', text: pin(turn.prompt.text, marks[i + 1]) } };
    return { ...turn, assistant };
  });
  return { ...spec, turns };
}
