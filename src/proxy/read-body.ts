/** Reads a request body into memory, up to a limit; or drops one nobody reads. */
import type { EdgeRequest } from './edge.js';

/**
 * The body, or `too_large` once it passes `max` bytes (or says it will, by its content-length).
 * Past the limit the rest is read and dropped, not buffered: a client still uploading when the
 * connection closes gets a reset instead of the 413 (RFC 9112 §9.6).
 */
export async function readBody(request: Pick<EdgeRequest, 'body' | 'headers'>, max: number): Promise<Buffer | 'too_large'> {
  const declared = Number(request.headers['content-length']);
  let tooLarge = Number.isFinite(declared) && declared > max;
  const source = request.body;
  if (source instanceof Uint8Array) return tooLarge || source.length > max ? 'too_large' : bufferOf(source);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of source) {
    if (tooLarge) continue;
    size += chunk.length;
    if (size > max) {
      tooLarge = true;
      chunks.length = 0;
      continue;
    }
    chunks.push(bufferOf(chunk));
  }
  if (tooLarge) return 'too_large';
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
}

/** Reads and drops a body no route takes, never buffering it, so the connection can serve the next request. */
export function dropBody(request: Pick<EdgeRequest, 'body'>): void {
  const source = request.body;
  if (source instanceof Uint8Array) return;
  void (async () => {
    for await (const _ of source) {
      // dropped
    }
  })().catch(() => undefined); // a client that hangs up mid-upload is no error here
}

function bufferOf(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
