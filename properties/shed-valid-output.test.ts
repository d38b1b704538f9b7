/**
 * Shed mode, valid output: every shed output is a request the Messages API accepts, as judged by
 * an independent validator written from the API's docs (test/support/messages-validator.ts), and
 * it is, read with JSON.parse, exactly the input with each span's messages replaced by one stub
 * message: the head, the window, every tool pair and every thinking block kept as they were.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderSpanStub } from '../src/core/shed/span-stub.js';
import { applyEpochs } from '../src/core/epochs/apply.js';
import { SPANS } from '../src/core/epochs/spans/spans.js';
import type { FrozenSpan } from '../src/core/shed/shed-types.js';
import { validateMessagesRequest } from '../test/support/messages-validator.js';
import { conversationArb, isJsonObject, type JsonValue } from './arbitraries/index.js';
import { messagesOf, parseBody } from './support/reference.js';
import { frozenSpans, latchPointsArb, latchSpans, shedPolicyArb, spansDirArb } from './support/shed-support.js';
import { sha256 } from './support/sha256.js';

/** The input's messages with each span replaced by its stub message (built from JSON, not bytes). */
function expectedMessages(input: JsonValue, spans: readonly FrozenSpan[], spansDir: string): JsonValue[] {
  const messages = messagesOf(input);
  const out: JsonValue[] = [];
  for (let i = 0; i < messages.length; i++) {
    const span = spans.find((s) => s.first === i);
    if (span === undefined) {
      out.push(messages[i]!);
      continue;
    }
    out.push({ role: 'user', content: renderSpanStub(span, spansDir) });
    i = span.last;
  }
  return out;
}

describe('applyEpochs(SPANS)', () => {
  it('should produce a body the Messages API accepts whenever its input was one', () => {
    let checked = 0;
    fc.assert(
      fc.property(conversationArb(8, 3), latchPointsArb, fc.nat(), shedPolicyArb, spansDirArb, (requests, points, x, policy, spansDir) => {
        const { planned, at } = latchSpans(requests, points, policy);
        const r = Math.max(x % requests.length, at[at.length - 1] ?? 0);
        const request = requests[r]!;
        const spans = frozenSpans(planned);

        const out = applyEpochs(SPANS, request.bytes, spans, { spansDir, sha256 });

        if (spans.length === 0) return;
        expect(out).toMatchObject({ kind: 'applied', stubs: spans.length });
        const input = parseBody(request.bytes)!;
        const output = parseBody(out.body)!;
        expect(isJsonObject(output) && { ...output, messages: null }).toEqual(isJsonObject(input) && { ...input, messages: null });
        expect(messagesOf(output)).toEqual(expectedMessages(input, spans, spansDir));
        if (validateMessagesRequest(request.bytes).length > 0) return;
        checked++;
        expect(validateMessagesRequest(out.body)).toEqual([]);
      }),
    );
    // Most generated inputs are valid requests (some have a whitespace-only text block).
    expect(checked).toBeGreaterThan(50);
  });

  it('should never shed a message that loads a deferred tool: every tool_reference of the input is sent', () => {
    let withLoads = 0;
    fc.assert(
      fc.property(conversationArb(8, 3), latchPointsArb, fc.nat(), shedPolicyArb, spansDirArb, (requests, points, x, policy, spansDir) => {
        const { planned, at } = latchSpans(requests, points, policy);
        const request = requests[Math.max(x % requests.length, at[at.length - 1] ?? 0)]!;
        const spans = frozenSpans(planned);
        const loads = (bytes: Uint8Array): string[] =>
          JSON.stringify(messagesOf(parseBody(bytes)!)).match(/"type":"tool_reference","tool_name":"[^"]*"/g) ?? [];

        const out = applyEpochs(SPANS, request.bytes, spans, { spansDir, sha256 });

        if (spans.length > 0 && loads(request.bytes).length > 0) withLoads++;
        expect(loads(out.body)).toEqual(loads(request.bytes));
      }),
    );
    // Some shed inputs hold loads: the property is not vacuous.
    expect(withLoads).toBeGreaterThan(0);
  });
});
