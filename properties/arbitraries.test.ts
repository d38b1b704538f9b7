/**
 * The generators' own tests: a property proven on wrong inputs proves nothing. The bytes must mean
 * exactly the structured value they were made from, and consecutive requests of a conversation
 * must differ the way the real client's do (test/fixtures/real/README.md), no more and no less.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CANONICAL_PROFILE, conversationArb, conversationSpecArb, lastRequest, requestBodyArb } from './arbitraries/index.js';
import { commonPrefixLength, sameBytes, utf8 } from './support/bytes.js';
import { parseBody } from './support/reference.js';
import { indexOf } from './support/rewrite-support.js';

describe('requestBodyArb', () => {
  it('should write bytes that JSON.parse reads back as the structured value', () => {
    fc.assert(
      fc.property(requestBodyArb(), (request) => {
        expect(parseBody(request.bytes)).toEqual(request.value);
      }),
    );
  });

  it('should write exactly JSON.stringify output under the canonical profile', () => {
    fc.assert(
      fc.property(conversationSpecArb(4), (spec) => {
        const request = lastRequest({ ...spec, format: CANONICAL_PROFILE });
        expect(sameBytes(request.bytes, utf8(JSON.stringify(request.value)))).toBe(true);
      }),
      { numRuns: 50 },
    );
  });
});

describe('conversationArb', () => {
  it('should grow each request from the previous one with the client edits only', () => {
    fc.assert(
      fc.property(conversationArb(), (requests) => {
        for (const [r, request] of requests.entries()) {
          expect(parseBody(request.bytes)).toEqual(request.value);
          const previous = requests[r - 1];
          if (previous === undefined) continue;
          // Everything up to the previous last message is byte-identical...
          const lastStart = indexOf(previous.bytes).messages[previous.messageCount - 1]!.start;
          expect(commonPrefixLength(previous.bytes, request.bytes)).toBeGreaterThanOrEqual(lastStart);
          // ...and that message differs at most by the breakpoint edit: same meaning once the
          // moving cache_control is dropped and a lone text block is read as its string.
          const messages = (v: typeof request.value): unknown => v['messages'];
          const was = (messages(previous.value) as unknown[]).at(-1);
          const now = (messages(request.value) as unknown[])[previous.messageCount - 1];
          expect(restingForm(now)).toEqual(restingForm(was));
        }
      }),
      { numRuns: 100 },
    );
  });
});

function restingForm(message: unknown): unknown {
  const m = message as { role: string; content: unknown };
  if (!Array.isArray(m.content)) return m;
  const blocks = m.content.map((b: Record<string, unknown>) => {
    const { cache_control: _drop, ...rest } = b;
    return rest;
  });
  const only = blocks[0];
  if (blocks.length === 1 && only?.['type'] === 'text' && Object.keys(only).length === 2) return { ...m, content: only['text'] };
  return { ...m, content: blocks };
}
