import { describe, expect, it } from 'vitest';
import { freezeSpan, planShed } from '../../../../src/core/shed/plan-span.js';
import { applyEpochs } from '../../../../src/core/epochs/apply.js';
import { SPANS, type ShedOptions } from '../../../../src/core/epochs/spans/spans.js';
import { spanStubMessage } from '../../../../src/core/shed/span-stub.js';
import type { FrozenSpan } from '../../../../src/core/shed/shed-types.js';
import { readMessagesFacts } from '../../../../src/core/shed/message-facts.js';
import { validateMessagesRequest } from '../../../support/messages-validator.js';
import { SMALL_RECENT_TOKENS, bodyOf, fromUtf8, mustIndex, session, sha256, utf8, withBreakpoint, type Message } from '../../shed/shed-bodies.js';
// The kinds' registry names the folders whose files are stored texts (core/stored-files.ts); the core's entry loads it.
import '../../../../src/core/epochs/kind-info.js';

const DIR = '/state/spans';
const OPTIONS: ShedOptions = { spansDir: DIR, sha256 };

function frozenFor(messages: readonly Message[], before: readonly FrozenSpan[] = []): FrozenSpan {
  const plan = planShed(bodyOf(messages), before, { readFacts: readMessagesFacts, sha256, recentTokens: SMALL_RECENT_TOKENS });
  if (plan.kind !== 'planned') throw new Error(`expected a span: ${plan.reason}`);
  return freezeSpan(plan.span);
}

/** The expected output, built from JSON: the span's messages replaced by the stub message. */
function expectedMessages(messages: readonly Message[], spans: readonly FrozenSpan[]): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < messages.length; i++) {
    const span = spans.find((s) => s.first === i);
    if (span === undefined) out.push(messages[i]);
    else {
      out.push(JSON.parse(fromUtf8(spanStubMessage(span, DIR))));
      i = span.last;
    }
  }
  return out;
}

describe('applyEpochs(SPANS)', () => {
  it("should replace the span's messages by one stub message and copy every other byte", () => {
    const messages = session(10);
    const span = frozenFor(messages);
    const body = bodyOf(messages);

    const out = applyEpochs(SPANS, body, [span], OPTIONS);

    expect(out).toMatchObject({ kind: 'applied', stubs: 1, messagesTaken: 8, bytesTaken: span.bytes, skipped: [] });
    const parsed = JSON.parse(fromUtf8(out.body)) as { messages: unknown[] };
    expect(parsed.messages).toEqual(expectedMessages(messages, [span]));
    expect(fromUtf8(out.body)).toBe(fromUtf8(body).replace(fromUtf8(body).slice(...spanRange(body, span)), fromUtf8(spanStubMessage(span, DIR))));
    expect(validateMessagesRequest(out.body)).toEqual([]);
  });

  it('should give the same bytes for every later request of the conversation, the breakpoint moving on', () => {
    const early = session(10);
    const span = frozenFor(early);
    const later = withBreakpoint(session(14));

    const a = applyEpochs(SPANS, bodyOf(withBreakpoint(early)), [span], OPTIONS);
    const b = applyEpochs(SPANS, bodyOf(later), [span], OPTIONS);

    expect(a.kind).toBe('applied');
    expect(b.kind).toBe('applied');
    const stubEnd = fromUtf8(a.body).indexOf(fromUtf8(spanStubMessage(span, DIR))) + spanStubMessage(span, DIR).length;
    expect(fromUtf8(b.body).slice(0, stubEnd)).toBe(fromUtf8(a.body).slice(0, stubEnd));
  });

  it("should apply a later epoch's span after the earlier stub, both stubs in order", () => {
    const first = frozenFor(session(10));
    const second = frozenFor(session(20), [first]);
    const messages = session(22);

    const out = applyEpochs(SPANS, bodyOf(messages), [first, second], OPTIONS);

    expect(out).toMatchObject({ kind: 'applied', stubs: 2 });
    expect((JSON.parse(fromUtf8(out.body)) as { messages: unknown[] }).messages).toEqual(expectedMessages(messages, [first, second]));
    expect(validateMessagesRequest(out.body)).toEqual([]);
  });

  it('should leave a span alone when its bytes changed, with a reason, and apply the others', () => {
    const first = frozenFor(session(10));
    const second = frozenFor(session(20), [first]);
    const edited = session(22);
    edited[3] = { ...edited[3]!, content: [{ type: 'text', text: 'rewound and edited' }] };

    const out = applyEpochs(SPANS, bodyOf(edited), [first, second], OPTIONS);

    expect(out).toMatchObject({ kind: 'applied', stubs: 1, skipped: [{ sha256: first.sha256, first: 1, reason: 'span_hash_mismatch' }] });
  });

  it('should pass the body through, as it came, when no span applies', () => {
    const span = frozenFor(session(10));
    const cases: Array<[Uint8Array, readonly FrozenSpan[], ShedOptions, string, string?]> = [
      [bodyOf(session(10)), [], OPTIONS, 'no_epoch'],
      [bodyOf(session(3)), [span], OPTIONS, 'epoch_mismatch', 'missing_span'],
      [bodyOf(session(10)), [{ ...span, bytes: span.bytes + 1 }], OPTIONS, 'epoch_mismatch', 'span_hash_mismatch'],
      [bodyOf(session(10)), [{ ...span, first: 0 }], OPTIONS, 'epoch_mismatch', 'span_out_of_order'],
      [bodyOf(session(10)), [span], { ...OPTIONS, isAvailable: () => false }, 'span_file_missing', 'span_file_missing'],
      [utf8('{"messages":[1]}'), [span], OPTIONS, 'not_messages_body'],
      [utf8('nope'), [span], OPTIONS, 'not_json'],
      [
        bodyOf(session(10)),
        [span],
        {
          ...OPTIONS,
          sha256: () => {
            throw new Error('boom');
          },
        },
        'internal_error',
      ],
    ];
    for (const [body, spans, options, reason, skip] of cases) {
      const out = applyEpochs(SPANS, body, spans, options);

      expect(out).toMatchObject({ kind: 'passthrough', reason });
      expect(out.body).toBe(body);
      if (skip !== undefined) expect(out.skipped.map((s) => s.reason)).toEqual([skip]);
    }
  });

  it('should skip a span whose next message is no longer an assistant message', () => {
    const messages = session(10);
    const span = frozenFor(messages);
    const changed = [...messages.slice(0, 9), { role: 'user', content: 'interjection' }, ...messages.slice(9)];

    const out = applyEpochs(SPANS, bodyOf(changed), [span], OPTIONS);

    expect(out).toMatchObject({ kind: 'passthrough', reason: 'epoch_mismatch', skipped: [{ reason: 'span_boundary_changed' }] });
  });

  it('should refuse spans out of order and fail open on overlapping ones', () => {
    const span = frozenFor(session(10));

    const out = applyEpochs(SPANS, bodyOf(session(12)), [span, { ...span }], OPTIONS);

    expect(out).toMatchObject({ kind: 'applied', stubs: 1, skipped: [{ reason: 'span_out_of_order' }] });
  });
});

function spanRange(body: Uint8Array, span: FrozenSpan): [number, number] {
  const index = mustIndex(body);
  const text = fromUtf8(body);
  // Byte offsets and string offsets agree: these bodies are ASCII.
  expect(text.length).toBe(body.length);
  return [index.messages[span.first]!.start, index.messages[span.last]!.end];
}
