/**
 * The WebSocket frame parser (src/proxy/websocket/frame-parser.ts) gives back, for any messages
 * written as frames (fragmented or not, pings between fragments, any payload length across the
 * 7, 16 and 64-bit length forms), the same messages and control frames, however the byte stream
 * is cut into chunks.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type FrameEvent, FrameParser } from '../src/proxy/websocket/frame-parser.js';
import { encodeFrame, OPCODE } from '../src/proxy/websocket/frame-writer.js';

type Sent = { kind: 'text'; text: string; pieces: number } | { kind: 'binary'; data: Uint8Array; pieces: number } | { kind: 'ping'; data: Uint8Array };

const sentArb: fc.Arbitrary<Sent> = fc.oneof(
  fc.record({
    kind: fc.constant('text' as const),
    text: fc.oneof(fc.string({ maxLength: 40 }), fc.string({ minLength: 120, maxLength: 70_000 })),
    pieces: fc.integer({ min: 1, max: 4 }),
  }),
  fc.record({ kind: fc.constant('binary' as const), data: fc.uint8Array({ maxLength: 300 }), pieces: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('ping' as const), data: fc.uint8Array({ maxLength: 125 }) }),
);

/** The frames of `sent`, a message's fragments with a ping between its first two when it has several; masked as a client's. */
function framesOf(sent: readonly Sent[], mask: Uint8Array): Buffer[] {
  const frames: Buffer[] = [];
  for (const s of sent) {
    if (s.kind === 'ping') {
      frames.push(encodeFrame(OPCODE.ping, s.data, { mask }));
      continue;
    }
    const bytes = s.kind === 'text' ? Buffer.from(s.text, 'utf8') : Buffer.from(s.data);
    const size = Math.ceil(bytes.length / s.pieces) || 1;
    const parts: Buffer[] = [];
    for (let at = 0; at < bytes.length || parts.length === 0; at += size) parts.push(bytes.subarray(at, at + size));
    parts.forEach((part, i) => {
      const opcode = i === 0 ? (s.kind === 'text' ? OPCODE.text : OPCODE.binary) : OPCODE.continuation;
      frames.push(encodeFrame(opcode, part, { mask, fin: i === parts.length - 1 }));
      if (i === 0 && parts.length > 1) frames.push(encodeFrame(OPCODE.ping, Buffer.from('between'), { mask }));
    });
  }
  return frames;
}

function expected(sent: readonly Sent[]): FrameEvent[] {
  const events: FrameEvent[] = [];
  for (const s of sent) {
    if (s.kind === 'ping') {
      events.push({ kind: 'ping', data: Buffer.from(s.data) });
      continue;
    }
    const bytes = s.kind === 'text' ? Buffer.from(s.text, 'utf8') : Buffer.from(s.data);
    const parts = Math.min(s.pieces, Math.max(1, bytes.length));
    const size = Math.ceil(bytes.length / s.pieces) || 1;
    if (Math.ceil(bytes.length / size) > 1 && parts > 1) events.push({ kind: 'ping', data: Buffer.from('between') });
    events.push({ kind: 'message', binary: s.kind === 'binary', data: bytes });
  }
  return events;
}

describe('FrameParser', () => {
  it('should give back the messages written, for any chunking of the byte stream', () => {
    fc.assert(
      fc.property(
        fc.array(sentArb, { maxLength: 6 }),
        fc.uint8Array({ minLength: 4, maxLength: 4 }),
        fc.array(fc.integer({ min: 1, max: 5000 }), { minLength: 1, maxLength: 20 }),
        (sent, mask, cuts) => {
          const stream = Buffer.concat(framesOf(sent, mask));
          const parser = new FrameParser({ masked: true });
          const got: FrameEvent[] = [];
          let at = 0;
          for (let i = 0; at < stream.length; i++) {
            const size = cuts[i % cuts.length] ?? 1;
            got.push(...parser.push(stream.subarray(at, at + size)));
            at += size;
          }
          expect(got).toEqual(expected(sent));
        },
      ),
      { numRuns: 200 },
    );
  });
});
