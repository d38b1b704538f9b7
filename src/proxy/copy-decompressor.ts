/** Decoding the usage tap's copy of a compressed response (gzip, deflate, br), as it streams. */
import type { Transform } from 'node:stream';
import zlib from 'node:zlib';

/** A streaming decoder fed the compressed copy chunk by chunk. */
export interface Decompressor {
  write(bytes: Buffer): void;
  end(): Promise<void>;
}

/** The codings the copy can be decoded from (the request's accept-encoding admits only these). */
export type Coding = 'gzip' | 'deflate' | 'br';

/** The one coding to undo (RFC 9110 §8.4); a chain of several is not something the API sends. */
export function contentCoding(header: string | undefined): Coding | 'unsupported' | undefined {
  const codings = (header ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  if (codings.length === 0) return undefined;
  if (codings.length > 1) return 'unsupported';
  const [coding] = codings;
  if (coding === 'gzip' || coding === 'x-gzip') return 'gzip';
  if (coding === 'deflate' || coding === 'br') return coding;
  return 'unsupported';
}

/**
 * A streaming decoder for the copy. `finishFlush: SYNC_FLUSH` makes a truncated stream (a client
 * that hung up) give what it decoded so far instead of an error. RFC 9110 §8.4.1.2 "deflate" is
 * zlib-wrapped, but some servers send raw deflate: the first two bytes tell (RFC 1950 §2.2).
 */
export function openDecompressor(coding: Coding, sink: (bytes: Buffer) => void, onError: (err: Error) => void): Decompressor {
  const lenient = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
  let stream: Transform | undefined;
  let closed = false;
  let head = Buffer.alloc(0);
  let sawBytes = false;
  const start = (s: Transform): Transform => {
    s.on('data', sink);
    s.on('error', onError);
    s.on('close', () => {
      closed = true;
    });
    stream = s;
    return s;
  };
  if (coding === 'gzip') start(zlib.createGunzip(lenient));
  else if (coding === 'br') start(zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH }));
  const startDeflate = (bytes: Buffer): Transform => start(hasZlibHeader(bytes) ? zlib.createInflate(lenient) : zlib.createInflateRaw(lenient));

  return {
    write(bytes: Buffer): void {
      if (bytes.length === 0) return;
      sawBytes = true;
      if (stream !== undefined) {
        stream.write(bytes);
        return;
      }
      head = Buffer.concat([head, bytes]);
      if (head.length >= 2) startDeflate(head).write(head);
    },
    end(): Promise<void> {
      // No body (HEAD, 204, 304): nothing to decode, and an empty gzip stream is not an error.
      if (!sawBytes) {
        stream?.destroy();
        return Promise.resolve();
      }
      let s = stream;
      if (s === undefined) {
        s = startDeflate(head);
        s.write(head);
      }
      const decoder = s;
      return new Promise((resolve) => {
        if (closed || decoder.destroyed) {
          resolve();
          return;
        }
        decoder.once('end', resolve);
        decoder.once('close', resolve);
        decoder.end();
      });
    },
  };
}

/** RFC 1950 §2.2: CM = 8 (deflate) and the 16-bit CMF·FLG header is a multiple of 31. */
function hasZlibHeader(bytes: Buffer): boolean {
  if (bytes.length < 2) return false;
  const cmf = bytes.readUInt8(0);
  const flg = bytes.readUInt8(1);
  return (cmf & 0x0f) === 8 && ((cmf << 8) | flg) % 31 === 0;
}
