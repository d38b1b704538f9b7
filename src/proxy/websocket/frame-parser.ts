/**
 * Reads WebSocket frames from a byte stream cut anywhere (RFC 6455 §5): unmasks them, joins a
 * fragmented message, lets control frames through between fragments, and stops at the first
 * violation with the close code it calls for (1002 protocol error, 1007 bad UTF-8, 1009 too big).
 */
import { OPCODE } from './frame-writer.js';

/** The largest message the proxy takes from a client, by default: 64 MiB (a request body's own cap is larger only by configuration). */
export const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** What the parser got out of the bytes so far. */
export type FrameEvent =
  | { readonly kind: 'message'; readonly binary: boolean; readonly data: Buffer }
  | { readonly kind: 'ping'; readonly data: Buffer }
  | { readonly kind: 'pong'; readonly data: Buffer }
  | { readonly kind: 'close'; readonly code: number | undefined; readonly reason: string }
  | { readonly kind: 'violation'; readonly closeCode: 1002 | 1007 | 1009; readonly detail: string };

/** How the parser reads. */
export interface ParserOptions {
  /** Frames must be masked (from a client, §5.1) or must not be (from a server). */
  readonly masked: boolean;
  /** The largest message, all its fragments together. */
  readonly maxMessageBytes?: number;
}

/** A frame header, read. */
interface Header {
  readonly fin: boolean;
  readonly opcode: number;
  readonly length: number;
  readonly mask: Buffer | undefined;
  readonly size: number;
}

const DECODER = new TextDecoder('utf-8', { fatal: true });

/** A streaming parser: `push` each chunk as it comes, get the events it completes. After a violation or a close it takes nothing more. */
export class FrameParser {
  private pending: Buffer = Buffer.alloc(0);
  private fragments: Buffer[] = [];
  private fragmentsBytes = 0;
  private fragmentBinary: boolean | undefined;
  private done = false;
  private readonly max: number;

  constructor(private readonly options: ParserOptions) {
    this.max = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  }

  /** The events the bytes so far complete. */
  push(chunk: Uint8Array): FrameEvent[] {
    if (this.done) return [];
    this.pending = this.pending.length === 0 ? Buffer.from(chunk) : Buffer.concat([this.pending, chunk]);
    const events: FrameEvent[] = [];
    while (!this.done) {
      const header = this.readHeader();
      if (header === undefined) break;
      if ('closeCode' in header) return this.stop(events, header);
      if (this.pending.length < header.size + header.length) break;
      const payload = this.pending.subarray(header.size, header.size + header.length);
      this.pending = this.pending.subarray(header.size + header.length);
      if (header.mask !== undefined) unmask(payload, header.mask);
      const event = this.take(header, payload);
      if (event === undefined) continue;
      if (event.kind === 'violation') return this.stop(events, event);
      events.push(event);
      if (event.kind === 'close') this.done = true;
    }
    return events;
  }

  private stop(events: FrameEvent[], violation: FrameEvent): FrameEvent[] {
    this.done = true;
    this.pending = Buffer.alloc(0);
    events.push(violation);
    return events;
  }

  /** The header at the start of `pending`, undefined until it is all there, or the violation it is. */
  private readHeader(): Header | Extract<FrameEvent, { kind: 'violation' }> | undefined {
    const b = this.pending;
    if (b.length < 2) return undefined;
    const first = b[0] ?? 0;
    const second = b[1] ?? 0;
    if ((first & 0x70) !== 0) return violation(1002, 'a reserved bit is set, and no extension was negotiated');
    const masked = (second & 0x80) !== 0;
    if (masked !== this.options.masked) return violation(1002, masked ? 'a server frame is masked' : 'a client frame is not masked');
    let length = second & 0x7f;
    let size = 2;
    if (length === 126) {
      if (b.length < 4) return undefined;
      length = b.readUInt16BE(2);
      size = 4;
    } else if (length === 127) {
      if (b.length < 10) return undefined;
      const long = b.readBigUInt64BE(2);
      if (long > BigInt(this.max)) return violation(1009, `a frame of ${long} bytes is over the ${this.max}-byte limit`);
      length = Number(long);
      size = 10;
    }
    if (length > this.max) return violation(1009, `a frame of ${length} bytes is over the ${this.max}-byte limit`);
    const maskSize = masked ? 4 : 0;
    if (b.length < size + maskSize) return undefined;
    const mask = masked ? Buffer.from(b.subarray(size, size + 4)) : undefined;
    return { fin: (first & 0x80) !== 0, opcode: first & 0x0f, length, mask, size: size + maskSize };
  }

  /** What one whole frame means. */
  private take(header: Header, payload: Buffer): FrameEvent | undefined {
    const { opcode } = header;
    if (opcode >= 0x8) return controlEvent(header, payload);
    if (opcode === OPCODE.continuation) {
      if (this.fragmentBinary === undefined) return violation(1002, 'a continuation frame with no message to continue');
    } else if (opcode === OPCODE.text || opcode === OPCODE.binary) {
      if (this.fragmentBinary !== undefined) return violation(1002, 'a new message began before the last one ended');
      this.fragmentBinary = opcode === OPCODE.binary;
    } else return violation(1002, `opcode ${opcode} is reserved`);
    this.fragmentsBytes += payload.length;
    if (this.fragmentsBytes > this.max) return violation(1009, `a message over the ${this.max}-byte limit`);
    this.fragments.push(Buffer.from(payload));
    if (!header.fin) return undefined;
    const data = Buffer.concat(this.fragments);
    const binary = this.fragmentBinary === true;
    this.fragments = [];
    this.fragmentsBytes = 0;
    this.fragmentBinary = undefined;
    if (!binary && !isUtf8(data)) return violation(1007, 'a text message is not valid UTF-8');
    return { kind: 'message', binary, data };
  }
}

/** A control frame (§5.5): never fragmented, at most 125 bytes; a close's payload is a code and a UTF-8 reason. */
function controlEvent(header: Header, payload: Buffer): FrameEvent {
  if (!header.fin || header.length > 125) return violation(1002, 'a control frame is fragmented or over 125 bytes');
  const data = Buffer.from(payload);
  switch (header.opcode) {
    case OPCODE.ping:
      return { kind: 'ping', data };
    case OPCODE.pong:
      return { kind: 'pong', data };
    case OPCODE.close:
      return closeEvent(data);
    default:
      return violation(1002, `opcode ${header.opcode} is reserved`);
  }
}

function closeEvent(data: Buffer): FrameEvent {
  if (data.length === 0) return { kind: 'close', code: undefined, reason: '' };
  if (data.length === 1) return violation(1002, 'a close frame with a 1-byte payload');
  const code = data.readUInt16BE(0);
  // §7.4: 1005, 1006 and 1015 are never sent; under 1000 and 1016-2999 but the defined ones are not used.
  const known = (code >= 1000 && code <= 1014 && code !== 1004 && code !== 1005 && code !== 1006) || (code >= 3000 && code <= 4999);
  if (!known) return violation(1002, `close code ${code} may not be sent`);
  const reason = data.subarray(2);
  if (!isUtf8(reason)) return violation(1007, 'a close reason is not valid UTF-8');
  return { kind: 'close', code, reason: reason.toString('utf8') };
}

function violation(closeCode: 1002 | 1007 | 1009, detail: string): Extract<FrameEvent, { kind: 'violation' }> {
  return { kind: 'violation', closeCode, detail };
}

function unmask(payload: Buffer, mask: Buffer): void {
  for (let i = 0; i < payload.length; i++) payload[i] = (payload[i] ?? 0) ^ (mask[i % 4] ?? 0);
}

function isUtf8(data: Buffer): boolean {
  try {
    DECODER.decode(data);
    return true;
  } catch {
    return false;
  }
}
