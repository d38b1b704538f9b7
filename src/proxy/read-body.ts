/** Reads a request body into memory, up to a limit. */
import type { IncomingMessage } from 'node:http';

/** The body, or `too_large` as soon as it passes `max` bytes (the rest is not buffered). */
export async function readBody(req: IncomingMessage, max: number): Promise<Buffer | 'too_large'> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) return 'too_large';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > max) return 'too_large';
    chunks.push(buf);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
}
