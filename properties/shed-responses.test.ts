/**
 * Shed mode on the Responses API (docs/openai.md, "Shed mode"), over generated Codex-like
 * conversations (arbitraries/openai-transcript.ts) latched at generated points:
 *
 * - every span the planner chooses keeps each `call_id` pair whole (call and output both in it, or
 *   both out of it on one side), keeps each reasoning item with the item after it, and leaves the
 *   leading items (up to the first user message) and Codex's `additional_tools` item alone;
 * - every output the span kind makes is accepted by a checker written apart from the planner, the
 *   scripted API's own rules (test/support/responses-validator.ts), whenever its input was;
 * - inflating an output (the stub items found, each span's exact bytes spliced back) gives back
 *   the input byte for byte.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyEpochs } from '../src/core/epochs/apply.js';
import { applyInflate } from '../src/core/epochs/inflate.js';
import { freezeSpan, planShed } from '../src/core/shed/plan-span.js';
import { RESPONSES_API } from '../src/core/dialects/responses.js';
import { SPANS } from '../src/core/epochs/spans/spans.js';
import type { PlannedSpan } from '../src/core/shed/shed-types.js';
import { readItemFacts } from '../src/core/shed/message-facts.js';
import { validateResponsesInput } from '../test/support/responses-validator.js';
import { openAiConversationArb, type OpenAiRequest } from './arbitraries/openai-transcript.js';
import { sameBytes } from './support/bytes.js';
import { openAiIndexOf } from './support/openai-support.js';
import { latchPointsArb, shedPolicyArb, spansDirArb } from './support/shed-support.js';
import { sha256 } from './support/sha256.js';
import type { ShedPolicy } from '../src/core/shed/shed-types.js';
// The kinds' registry names the folders whose files are stored texts (core/stored-files.ts); the core's entry loads it.
import '../src/core/epochs/kind-info.js';

/** The spans of epochs latched at these requests, each planned after the ones before it. */
function latchResponsesSpans(requests: readonly OpenAiRequest[], points: readonly number[], policy: ShedPolicy): { planned: PlannedSpan[]; at: number[] } {
  const planned: PlannedSpan[] = [];
  const at: number[] = [];
  for (const p of [...points].map((x) => x % requests.length).sort((a, b) => a - b)) {
    const bytes = requests[p]!.bytes;
    const plan = planShed(bytes, planned.map(freezeSpan), { readFacts: readItemFacts, sha256, policy, index: openAiIndexOf('responses', bytes) });
    if (plan.kind === 'planned') {
      planned.push(plan.span);
      at.push(p);
    }
  }
  return { planned, at };
}

type Item = Record<string, unknown>;

function itemsOf(request: OpenAiRequest): Item[] {
  return (request.value['input'] as Item[]).map((i) => i);
}

/** Why the span [first, last] breaks a pairing, or undefined. Read from JSON, not from the planner's facts. */
function brokenPair(items: readonly Item[], first: number, last: number): string | undefined {
  const side = (i: number): number => (i < first ? -1 : i > last ? 1 : 0);
  const calls = new Map<string, number>();
  items.forEach((item, i) => {
    if (typeof item['type'] === 'string' && item['type'].endsWith('_call')) calls.set(String(item['call_id']), i);
  });
  for (const [i, item] of items.entries()) {
    const type = String(item['type'] ?? 'message');
    if (type.endsWith('_output')) {
      const at = calls.get(String(item['call_id']));
      if (at === undefined || side(at) !== side(i)) return `output ${i} and its call ${at} lie on two sides of ${first}..${last}`;
    }
    if (type === 'reasoning' && side(i) !== side(i + 1)) return `reasoning ${i} is cut from item ${i + 1}`;
    if (type === 'additional_tools' && side(i) === 0) return `the tools item ${i} is in the span`;
  }
  const head = items.findIndex((item) => item['role'] === 'user');
  return first <= head ? `the span starts at ${first}, in the leading items (to ${head})` : undefined;
}

describe('shed spans on the Responses API', () => {
  it('should choose spans that keep every call_id pair, every reasoning item with its next, and the leading items', () => {
    let spans = 0;
    fc.assert(
      fc.property(openAiConversationArb('responses', 10, 2), latchPointsArb, shedPolicyArb, (requests, points, policy) => {
        const { planned, at } = latchResponsesSpans(requests, points, policy);
        planned.forEach((span, k) => {
          spans++;
          expect(brokenPair(itemsOf(requests[at[k]!]!), span.first, span.last)).toBeUndefined();
        });
      }),
    );
    expect(spans).toBeGreaterThan(30);
  });

  it('should make outputs the scripted API accepts whenever it accepted the input, and inflate them back byte for byte', () => {
    let checked = 0;
    fc.assert(
      fc.property(openAiConversationArb('responses', 10, 2), latchPointsArb, fc.nat(), shedPolicyArb, spansDirArb, (requests, points, x, policy, spansDir) => {
        const { planned, at } = latchResponsesSpans(requests, points, policy);
        const request = requests[Math.max(x % requests.length, at[at.length - 1] ?? 0)]!;
        const frozen = planned.map(freezeSpan);

        const out = applyEpochs(SPANS, request.bytes, frozen, { spansDir, sha256, api: RESPONSES_API });

        if (frozen.length === 0) return;
        expect(out).toMatchObject({ kind: 'applied', stubs: frozen.length });
        const found = SPANS.findStubs(out.body, openAiIndexOf('responses', out.body));
        expect(found.map((f) => f.stub.sha256)).toEqual(frozen.map((s) => s.sha256));
        const bytesOf = new Map(planned.map((s) => [s.sha256, s.text]));
        expect(
          sameBytes(
            applyInflate(
              out.body,
              found.map((f) => ({ found: f, content: bytesOf.get(f.stub.sha256)! })),
            ),
            request.bytes,
          ),
        ).toBe(true);
        if (validateResponsesInput(request.bytes).length > 0) return;
        checked++;
        expect(validateResponsesInput(out.body)).toEqual([]);
      }),
      { numRuns: 60 },
    );
    expect(checked).toBeGreaterThan(30);
  });
});
