import { renderSpanMarkdown } from '../../../../src/core/shed/render-span-markdown.js';
import { describe, expect, it } from 'vitest';
import { CONVERSATION_FORMAT, type ConversationRecord } from '../../../../src/core/epoch-types.js';
import { DEFAULT_SHED_POLICY, SHED_POLICY_NAME, SHED_POLICY_VERSION, type PlannedSpan } from '../../../../src/core/shed/shed-types.js';
import { decideBurst } from '../../../../src/core/break-even.js';
import { planRecord } from '../../../../src/core/plan-record.js';
import { planShed } from '../../../../src/core/shed/plan-span.js';
import { spansLatch } from '../../../../src/core/epochs/spans/spans-latch.js';
import { readMessagesFacts } from '../../../../src/core/shed/message-facts.js';
import { SMALL_RECENT_TOKENS, bodyOf, session, sha256 } from '../../shed/shed-bodies.js';

const hex = (n: number): string => n.toString(16).padStart(64, '0');
const GATE = decideBurst({ invalidatedSuffixTokens: 10, droppedCachedTokens: 100, turnsSoFar: 5, oneHourCache: false });

function spanOf(turns: number): PlannedSpan {
  const plan = planShed(bodyOf(session(turns)), [], { readFacts: readMessagesFacts, sha256, recentTokens: SMALL_RECENT_TOKENS });
  if (plan.kind !== 'planned') throw new Error(plan.reason);
  return plan.span;
}

const REQUEST = {
  span: spanOf(10),
  reading: { contextTokens: 150_000, window: 200_000, epochsApplied: 0, requestBytes: 600_000 },
  gate: GATE,
  firstPrompt: 'fix the parser',
  model: 'claude-test',
  agentId: 'agent-1',
};
const INPUT = {
  key: hex(7),
  current: undefined as ConversationRecord | undefined,
  request: REQUEST,
  threshold: 0.7,
  recentTokens: 9_000,
  now: '2026-01-02T03:04:05.000Z',
};
const SPANS = spansLatch({ policy: DEFAULT_SHED_POLICY, spansDir: '/state/spans', sha256 });

/** A span epoch's record: the kind's part from its planner, the rest from planRecord. */
function planShedRecord(input: typeof INPUT & { readonly request: typeof REQUEST & { readonly trigger?: 'overflow'; readonly limit?: number } }) {
  const { request, recentTokens, ...rest } = input;
  const { span, gate, ...facts } = request;
  return planRecord({ ...rest, facts, part: SPANS.epochOf({ span, recentTokens }, gate) });
}

describe('planRecord of a span epoch (spansLatch.epochOf)', () => {
  it("should record an overflow's trigger and the maximum the API named", () => {
    const plan = planShedRecord({ ...INPUT, request: { ...REQUEST, trigger: 'overflow', limit: 140_000 } });

    expect(plan.record.epochs[0]).toMatchObject({ kind: 'span', trigger: 'overflow', reason: { contextTokens: 150_000, window: 200_000, limit: 140_000 } });
  });

  it("should start a record with a shed epoch: mode, trigger, reading, policy, span and gate, and plan the span's file", () => {
    const plan = planShedRecord(INPUT);

    expect(plan.record).toMatchObject({
      format: CONVERSATION_FORMAT,
      key: hex(7),
      agentId: 'agent-1',
      firstPrompt: 'fix the parser',
      model: 'claude-test',
      createdAt: INPUT.now,
    });
    expect(plan.record.epochs).toEqual([
      {
        n: 1,
        latchedAt: INPUT.now,
        kind: 'span',
        trigger: 'threshold',
        reason: { fullness: 0.75, threshold: 0.7, window: 200_000, contextTokens: 150_000 },
        policy: { name: SHED_POLICY_NAME, version: SHED_POLICY_VERSION, keepRecent: 0, minBytes: 0, recentTokens: 9_000 },
        items: { span: [{ first: 1, last: 8, sha256: REQUEST.span.sha256, bytes: REQUEST.span.bytes, pins: [] }] },
        gate: GATE,
      },
    ]);
    expect(plan.originals).toEqual([
      { folder: 'span', sha256: REQUEST.span.sha256, ext: 'json', bytes: REQUEST.span.text },
      { folder: 'span', sha256: REQUEST.span.sha256, ext: 'md', bytes: new TextEncoder().encode(renderSpanMarkdown(REQUEST.span.text, REQUEST.span.sha256)) },
    ]);
  });

  it('should append the next epoch and keep the rest of the record', () => {
    const current = planShedRecord({ ...INPUT, now: '2026-01-01T00:00:00.000Z' }).record;

    const plan = planShedRecord({ ...INPUT, current, request: { ...REQUEST, firstPrompt: 'other' } });

    expect(plan.record.createdAt).toBe('2026-01-01T00:00:00.000Z');
    expect(plan.record.firstPrompt).toBe('fix the parser');
    expect(plan.record.epochs.map((e) => e.n)).toEqual([1, 2]);
  });
});
