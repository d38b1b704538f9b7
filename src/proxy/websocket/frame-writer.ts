/**
 * Writes WebSocket frames (RFC 6455 §5.2). A server's frames are never masked (§5.1); a client's
 * always are, so the scripted client passes a mask.
 */

/** The opcodes of RFC 6455 §5.2 this proxy speaks. */
export const OPCODE = { continuation: 0x0, text: 0x1, binary: 0x2, close: 0x8, ping: 0x9, pong: 0xa } as const;

/** A frame opcode. */
export type Opcode = (typeof OPCODE)[keyof typeof OPCODE];

/** The close codes this proxy sends (RFC 6455 §7.4.1). */
export const CLOSE_CODE = {
  normal: 1000,
  goingAway: 1001,
  protocolError: 1002,
  unsupportedData: 1003,
  invalidPayload: 1007,
  policyViolation: 1008,
  tooBig: 1009,
  internalError: 1011,
} as const;

/** What a frame carries besides its payload. */
export interface FrameOptions {
  /** The FIN bit: the last frame of its message (default true). */
  readonly fin?: boolean;
  /** The 4-byte masking key a client must use; absent, the frame is unmasked (a server's). */
  readonly mask?: Uint8Array;
}

/** One frame: its header (7, 16 or 64-bit length), then its payload, masked when a mask is given. */
export function encodeFrame(opcode: Opcode, payload: Uint8Array, options: FrameOptions = {}): Buffer {
  const length = payload.length;
  const lengthBytes = length < 126 ? 0 : length <= 0xffff ? 2 : 8;
  const maskBytes = options.mask === undefined ? 0 : 4;
  const frame = Buffer.alloc(2 + lengthBytes + maskBytes + length);
  frame[0] = ((options.fin ?? true) ? 0x80 : 0) | opcode;
  const maskBit = options.mask === undefined ? 0 : 0x80;
  if (lengthBytes === 0) frame[1] = maskBit | length;
  else if (lengthBytes === 2) {
    frame[1] = maskBit | 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = maskBit | 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  const at = 2 + lengthBytes + maskBytes;
  if (options.mask === undefined) {
    frame.set(payload, at);
    return frame;
  }
  frame.set(options.mask.subarray(0, 4), 2 + lengthBytes);
  for (let i = 0; i < length; i++) frame[at + i] = (payload[i] ?? 0) ^ (options.mask[i % 4] ?? 0);
  return frame;
}

/** A close frame's payload: the code, then a reason of at most 123 bytes (§5.5: control payloads fit in 125). */
export function closePayload(code: number, reason: string): Buffer {
  let text = Buffer.from(reason, 'utf8');
  if (text.length > 123) {
    // Cut on a character's first byte: a close reason must be valid UTF-8 (§7.1.6).
    let end = 123;
    while (end > 0 && ((text[end] ?? 0) & 0xc0) === 0x80) end--;
    text = text.subarray(0, end);
  }
  const payload = Buffer.alloc(2 + text.length);
  payload.writeUInt16BE(code, 0);
  payload.set(text, 2);
  return payload;
}
