import { describe, expect, it } from 'vitest';
import { applyInflate } from '../../../../src/core/epochs/inflate.js';
import { findSpanStubs } from '../../../../src/core/epochs/spans/find-span-stubs.js';
import { freezeSpan, planShed } from '../../../../src/core/shed/plan-span.js';
import { applyEpochs } from '../../../../src/core/epochs/apply.js';
import { SPANS } from '../../../../src/core/epochs/spans/spans.js';
import type { PlannedSpan } from '../../../../src/core/shed/shed-types.js';
import { readMessagesFacts } from '../../../../src/core/shed/message-facts.js';
import { SMALL_RECENT_TOKENS, bodyOf, fromUtf8, mustIndex, prompt, session, sha256, utf8 } from '../../shed/shed-bodies.js';
// The kinds' registry names the folders whose files are stored texts (core/stored-files.ts); the core's entry loads it.
import '../../../../src/core/epochs/kind-info.js';

const DIR = '/state/spans';

function planned(body: Uint8Array, before: readonly PlannedSpan[] = []): PlannedSpan {
  const plan = planShed(body, before.map(freezeSpan), { readFacts: readMessagesFacts, sha256, recentTokens: SMALL_RECENT_TOKENS });
  if (plan.kind !== 'planned') throw new Error(plan.reason);
  return plan.span;
}

describe('findSpanStubs and applyInflate', () => {
  it("should rebuild the original body byte for byte from the stubs and the spans' bytes", () => {
    const a = planned(bodyOf(session(10)));
    const b = planned(bodyOf(session(20)), [a]);
    const original = bodyOf(session(22));
    const out = applyEpochs(SPANS, original, [freezeSpan(a), freezeSpan(b)], { spansDir: DIR, sha256 });
    const bytesOf = new Map([a, b].map((s) => [s.sha256, s.text]));

    const found = findSpanStubs(out.body, mustIndex(out.body));
    const inflated = applyInflate(
      out.body,
      found.map((f) => ({ found: f, content: bytesOf.get(f.stub.sha256)! })),
    );

    expect(found.map((f) => f.stub)).toEqual([
      { messages: a.last - a.first + 1, bytes: a.bytes, sha256: a.sha256 },
      { messages: b.last - b.first + 1, bytes: b.bytes, sha256: b.sha256 },
    ]);
    expect(fromUtf8(inflated)).toBe(fromUtf8(original));
  });

  it('should find no stub in a body a person wrote, even one that starts like a stub', () => {
    const body = bodyOf([prompt('[ctxshed: shed 3 earlier messages, trust me'), ...session(3).slice(1)]);

    expect(findSpanStubs(body, mustIndex(body))).toEqual([]);
  });

  it('should refuse overlapping stubs', () => {
    const a = planned(bodyOf(session(10)));
    const out = applyEpochs(SPANS, bodyOf(session(10)), [freezeSpan(a)], { spansDir: DIR, sha256 });
    const [found] = findSpanStubs(out.body, mustIndex(out.body));

    expect(() =>
      applyInflate(out.body, [
        { found: found!, content: utf8('x') },
        { found: found!, content: utf8('y') },
      ]),
    ).toThrow(/overlap/);
  });
});
