/** Reads a request body into memory, up to a limit. */
import type { IncomingMessage } from 'node:http';

/**
 * The body, or `too_large` once it passes `max` bytes. Past the limit the rest is read and
 * dropped, not buffered: a client still uploading when the connection closes gets a reset
 * instead of the 413 (RFC 9112 §9.6).
 */
export async function readBody(req: IncomingMessage, max: number): Promise<Buffer | 'too_large'> {
  const declared = Number(req.headers['content-length']);
  let tooLarge = Number.isFinite(declared) && declared > max;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    if (tooLarge) continue;
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > max) {
      tooLarge = true;
      chunks.length = 0;
      continue;
    }
    chunks.push(buf);
  }
  if (tooLarge) return 'too_large';
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
}
