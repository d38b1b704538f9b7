import { describe, expect, it } from 'vitest';
import { FrameParser } from '../../../src/proxy/websocket/frame-parser.js';
import { closePayload, encodeFrame, OPCODE } from '../../../src/proxy/websocket/frame-writer.js';

const MASK = Buffer.from([1, 2, 3, 4]);

describe('FrameParser', () => {
  it('should unmask a client text frame and give its message', () => {
    // Arrange
    const parser = new FrameParser({ masked: true });

    // Act
    const events = parser.push(encodeFrame(OPCODE.text, Buffer.from('{"type":"response.create"}'), { mask: MASK }));

    // Assert
    expect(events).toEqual([{ kind: 'message', binary: false, data: Buffer.from('{"type":"response.create"}') }]);
  });

  it('should close with 1002 on an unmasked client frame (RFC 6455 §5.1)', () => {
    const parser = new FrameParser({ masked: true });
    const events = parser.push(encodeFrame(OPCODE.text, Buffer.from('hi')));
    expect(events).toEqual([expect.objectContaining({ kind: 'violation', closeCode: 1002 })]);
  });

  it('should close with 1009 on a frame whose 64-bit length is over the cap, before its payload comes', () => {
    const parser = new FrameParser({ masked: true, maxMessageBytes: 1000 });
    const header = Buffer.from([0x81, 0x80 | 127, 0, 0, 0, 1, 0, 0, 0, 0]);
    expect(parser.push(header)).toEqual([expect.objectContaining({ kind: 'violation', closeCode: 1009 })]);
  });

  it('should close with 1009 on fragments that together pass the cap', () => {
    const parser = new FrameParser({ masked: true, maxMessageBytes: 10 });
    const first = encodeFrame(OPCODE.text, Buffer.from('123456'), { mask: MASK, fin: false });
    const second = encodeFrame(OPCODE.continuation, Buffer.from('789012'), { mask: MASK });
    expect(parser.push(Buffer.concat([first, second]))).toEqual([expect.objectContaining({ kind: 'violation', closeCode: 1009 })]);
  });

  it('should close with 1007 on a text message that is not UTF-8', () => {
    const parser = new FrameParser({ masked: true });
    expect(parser.push(encodeFrame(OPCODE.text, Buffer.from([0xff, 0xfe]), { mask: MASK }))).toEqual([
      expect.objectContaining({ kind: 'violation', closeCode: 1007 }),
    ]);
  });

  it.each([
    ['a reserved bit (no extension negotiated)', Buffer.from([0xc1, 0x80, 1, 2, 3, 4])],
    ['a reserved opcode', encodeFrame(0x3 as never, Buffer.alloc(0), { mask: MASK })],
    ['a continuation with nothing to continue', encodeFrame(OPCODE.continuation, Buffer.from('x'), { mask: MASK })],
    ['a fragmented ping', encodeFrame(OPCODE.ping, Buffer.from('x'), { mask: MASK, fin: false })],
    ['a close code that may not be sent', encodeFrame(OPCODE.close, closePayload(1005, ''), { mask: MASK })],
  ])('should close with 1002 on %s', (_name, bytes) => {
    const parser = new FrameParser({ masked: true });
    expect(parser.push(bytes)).toEqual([expect.objectContaining({ kind: 'violation', closeCode: 1002 })]);
  });

  it('should read a close frame code and reason, then take nothing more', () => {
    const parser = new FrameParser({ masked: true });
    const close = encodeFrame(OPCODE.close, closePayload(1000, 'bye'), { mask: MASK });
    const after = encodeFrame(OPCODE.text, Buffer.from('late'), { mask: MASK });
    expect(parser.push(Buffer.concat([close, after]))).toEqual([{ kind: 'close', code: 1000, reason: 'bye' }]);
    expect(parser.push(after)).toEqual([]);
  });
});
