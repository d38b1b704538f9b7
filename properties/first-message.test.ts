/**
 * `findFirstMessage`, the proxy's shortcut to a conversation's key: it must find the same span as
 * the full index wherever the full index succeeds, and never throw whatever the bytes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findFirstMessage } from '../src/core/first-message.js';
import { indexTranscript } from '../src/core/messages/transcript-index.js';
import { requestBodyArb } from './arbitraries/index.js';
import { applyByteEdit, byteEditArb, wrongShapeArb } from './arbitraries/mutations.js';
import { utf8 } from './support/bytes.js';

const bodyArb: fc.Arbitrary<Uint8Array> = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(requestBodyArb(3), byteEditArb).map(([r, e]) => applyByteEdit(r.bytes, e)) },
  { weight: 2, arbitrary: requestBodyArb(3).map((r) => r.bytes) },
  { weight: 1, arbitrary: fc.tuple(requestBodyArb(2), wrongShapeArb).map(([r, s]) => s.wrap(r.bytes)) },
  { weight: 1, arbitrary: fc.jsonValue().map((v) => utf8(JSON.stringify({ model: 'm', messages: v }))) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }) },
);

describe('findFirstMessage', () => {
  it('should find the span of messages[0] the full index finds (null when there are none), and never throw', () => {
    fc.assert(
      fc.property(bodyArb, (bytes) => {
        const first = findFirstMessage(bytes);

        const outcome = indexTranscript(bytes);
        if (outcome.kind !== 'indexed') return;
        const message = outcome.index.messages[0];
        expect(first).toEqual(message === undefined ? null : { start: message.start, end: message.end });
      }),
    );
  });
});
