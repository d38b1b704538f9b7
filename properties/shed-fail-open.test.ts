/**
 * Shed mode, fail open: whatever the bytes, planning a span, shedding, finding stubs, rendering a
 * span and looking for a one-hour cache never throw; a pass-through's body is the input itself,
 * with a reason from the closed list.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asksOneHourCache } from '../src/core/shed/one-hour-cache.js';
import { findSpanStubs } from '../src/core/epochs/spans/find-span-stubs.js';
import { indexTranscript } from '../src/core/messages/transcript-index.js';
import { PASSTHROUGH_REASONS } from '../src/core/passthrough-reasons.js';
import { planShed } from '../src/core/shed/plan-span.js';
import { renderSpanMarkdown } from '../src/core/shed/render-span-markdown.js';
import { SHED_REFUSALS, type FrozenSpan } from '../src/core/shed/shed-types.js';
import { applyEpochs } from '../src/core/epochs/apply.js';
import { SPANS } from '../src/core/epochs/spans/spans.js';
import { readMessagesFacts } from '../src/core/shed/message-facts.js';
import { requestBodyArb } from './arbitraries/index.js';
import { applyByteEdit, byteEditArb } from './arbitraries/mutations.js';
import { sameBytes } from './support/bytes.js';
import { frozenSpans, latchSpans, shedPolicyArb, spansDirArb } from './support/shed-support.js';
import { sha256 } from './support/sha256.js';

/** A span no body holds, so a body without a plan still takes the splice's full path. */
const NOWHERE: FrozenSpan = { first: 1, last: 2, sha256: '0'.repeat(64), bytes: 10, pins: [] };

function everythingOn(bytes: Uint8Array, spans: readonly FrozenSpan[], spansDir: string): void {
  const copy = bytes.slice();
  const plan = planShed(bytes, [], { readFacts: readMessagesFacts, sha256 });
  if (plan.kind === 'none') expect(Object.keys(SHED_REFUSALS)).toContain(plan.reason);
  const out = applyEpochs(SPANS, bytes, spans, { spansDir, sha256 });
  if (out.kind === 'passthrough') {
    expect(Object.keys(PASSTHROUGH_REASONS)).toContain(out.reason);
    expect(out.body).toBe(bytes);
  }
  const indexed = indexTranscript(bytes);
  if (indexed.kind === 'indexed') findSpanStubs(bytes, indexed.index);
  expect(typeof renderSpanMarkdown(bytes, NOWHERE.sha256)).toBe('string');
  expect(typeof asksOneHourCache(bytes)).toBe('boolean');
  expect(sameBytes(bytes, copy)).toBe(true);
}

describe('shed mode on any bytes', () => {
  it('should never throw on arbitrary bytes', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 2000 }), spansDirArb, (bytes, spansDir) => everythingOn(bytes, [NOWHERE], spansDir)));
  });

  it('should never throw on a real-shaped body with a byte edited, and shed it only when it still checks', () => {
    fc.assert(
      fc.property(requestBodyArb(8, 3), byteEditArb, shedPolicyArb, spansDirArb, (request, edit, policy, spansDir) => {
        const spans = frozenSpans(latchSpans([request], [0], policy).planned);
        const damaged = applyByteEdit(request.bytes, edit);

        everythingOn(damaged, spans.length > 0 ? spans : [NOWHERE], spansDir);
        const out = applyEpochs(SPANS, damaged, spans, { spansDir, sha256 });
        if (out.kind === 'applied') expect(indexTranscript(out.body).kind).toBe('indexed');
      }),
    );
  });
});
