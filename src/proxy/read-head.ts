/** Reads the start of a request body, until it is enough to decide what to do with the rest. */
import type { IncomingMessage } from 'node:http';

/** What arrived: the whole body, or its head and the client's stream after it. */
export type BodyHead =
  | { readonly complete: true; readonly body: Buffer }
  | { readonly complete: false; readonly head: Buffer; readonly rest: AsyncIterator<unknown> };

/**
 * Reads chunks until `enough(head)` says so, the head passes `limit` bytes, or the body ends.
 * `enough` runs on each new head, so it must be cheap while heads are small.
 */
export async function readHead(req: IncomingMessage, limit: number, enough: (head: Buffer) => boolean): Promise<BodyHead> {
  const rest = req[Symbol.asyncIterator]();
  const chunks: Buffer[] = [];
  let size = 0;
  for (;;) {
    const next = await rest.next();
    if (next.done === true) return { complete: true, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size) };
    const chunk = next.value as Buffer;
    chunks.push(chunk);
    size += chunk.length;
    const head = chunks.length === 1 ? chunk : Buffer.concat(chunks, size);
    if (size > limit || enough(head)) return { complete: false, head, rest };
  }
}

/** The rest of a body whose head was read: all of it, in memory. */
export async function readRest(head: Buffer, rest: AsyncIterator<unknown>): Promise<Buffer> {
  const chunks = [head];
  let size = head.length;
  for (;;) {
    const next = await rest.next();
    if (next.done === true) return Buffer.concat(chunks, size);
    const chunk = next.value as Buffer;
    chunks.push(chunk);
    size += chunk.length;
  }
}
