/**
 * Shed mode, pins: a text carrying [ctxshed:goal] is never lost. After any number of epochs,
 * every such text of the input appears verbatim in the output: in place when it was kept, in its
 * span's stub, in order, when it was shed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GOAL_MARKER } from '../src/core/shed/shed-types.js';
import { applyEpochs } from '../src/core/epochs/apply.js';
import { SPANS } from '../src/core/epochs/spans/spans.js';
import { isJsonArray, isJsonObject, type JsonValue } from './arbitraries/index.js';
import { messagesOf, parseBody } from './support/reference.js';
import { frozenSpans, latchPointsArb, latchSpans, pinnedConversationArb, shedPolicyArb, spansDirArb } from './support/shed-support.js';
import { sha256 } from './support/sha256.js';

/** Every string content and text block text of the messages, in order. */
function texts(body: JsonValue): string[] {
  const out: string[] = [];
  for (const message of messagesOf(body)) {
    const content = isJsonObject(message) ? message['content'] : undefined;
    if (typeof content === 'string') out.push(content);
    if (isJsonArray(content))
      for (const block of content) if (isJsonObject(block) && block['type'] === 'text' && typeof block['text'] === 'string') out.push(block['text']);
  }
  return out;
}

describe('applyEpochs(SPANS)', () => {
  it("should keep every pinned text verbatim, in place or hoisted into its span's stub", () => {
    let hoisted = 0;
    fc.assert(
      fc.property(pinnedConversationArb(), latchPointsArb, shedPolicyArb, spansDirArb, (requests, points, policy, spansDir) => {
        const { planned } = latchSpans(requests, points, policy);
        const request = requests[requests.length - 1]!;

        const out = applyEpochs(SPANS, request.bytes, frozenSpans(planned), { spansDir, sha256 });

        const pins = texts(parseBody(request.bytes)!).filter((t) => t.includes(GOAL_MARKER));
        const after = texts(parseBody(out.body)!);
        for (const pin of pins) expect(after.some((t) => t === pin || t.includes(`\n\n${pin}`))).toBe(true);
        for (const span of planned) {
          const stub = after.find((t) => t.includes(span.sha256))!;
          let from = 0;
          for (const pin of span.pins) {
            const at = stub.indexOf(pin, from);
            expect(at).toBeGreaterThanOrEqual(from);
            from = at + pin.length;
            hoisted++;
          }
        }
      }),
    );
    expect(hoisted).toBeGreaterThan(10);
  });
});
