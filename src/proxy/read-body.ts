/** Reads a request body into memory, within its limits; or drops one nobody reads. */
import { Readable } from 'node:stream';
import type { BodyBudget } from './body-budget.js';
import type { EdgeRequest } from './edge.js';

/** What bounds one body: its size, the silence allowed between its bytes, and the bytes all bodies may hold at once. */
export interface BodyLimits {
  readonly max: number;
  /** No byte for this long: the body is given up (`timed_out`). Absent or 0: no limit. */
  readonly idleTimeoutMs?: number | undefined;
  /** Shared by every connection of the proxy; the bytes of a body that comes back whole stay taken. */
  readonly budget?: BodyBudget | undefined;
}

/** Why a body was not read whole. */
export type BodyRefusal = 'too_large' | 'timed_out' | 'over_budget';

/**
 * The body, or why not: `too_large` once it passes `max` bytes (or says it will, by its
 * content-length), `over_budget` when it would take the bytes in flight past the budget's cap,
 * `timed_out` when it stalls. Past `max` or the cap the rest is read and dropped, not buffered
 * (within the idle timeout): a client still uploading when the connection closes gets a reset
 * instead of the answer (RFC 9112 §9.6). A stalled body is left unread; its connection is closed
 * after the answer. On every refusal the bytes taken are given back. The caller gives back
 * `body.length` once its request is done.
 */
export async function readBody(request: Pick<EdgeRequest, 'body' | 'headers'>, limits: BodyLimits): Promise<Buffer | BodyRefusal> {
  const { max, budget } = limits;
  const declared = Number(request.headers['content-length']);
  let refusal: BodyRefusal | undefined = Number.isFinite(declared) && declared > max ? 'too_large' : undefined;
  const source = request.body;
  if (source instanceof Uint8Array) {
    if (refusal !== undefined || source.length > max) return 'too_large';
    return budget === undefined || budget.take(source.length) ? bufferOf(source) : 'over_budget';
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    const sized = (n: number): void => {
      size = n;
    };
    // A socket's body is read by its events, one idle timer for the whole body; any other by pulls.
    refusal =
      source instanceof Readable
        ? await readStream(source, limits, refusal, chunks, sized)
        : await readChunks(source[Symbol.asyncIterator](), limits, refusal, chunks, sized);
  } catch (error) {
    // The client went away mid-upload: what it had sent is given back, and dropped.
    if (chunks.length > 0) budget?.give(size);
    throw error;
  }
  if (refusal !== undefined) {
    if (chunks.length > 0) budget?.give(size); // timed out while still buffering
    return refusal;
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
}

/** What to do with one chunk: keep it, or refuse the body (its rest is then read and dropped). */
function takeChunk(chunk: Buffer, limits: BodyLimits, size: number): BodyRefusal | undefined {
  const { max, budget } = limits;
  if (size + chunk.length > max) return 'too_large';
  return budget !== undefined && !budget.take(chunk.length) ? 'over_budget' : undefined;
}

/**
 * `readChunks` for a node stream (a socket's request), with no promise or timer per chunk: the
 * chunks come as events, and the one idle timer is refreshed by each. A stalled body leaves the
 * stream paused; one whose client goes away rejects.
 */
function readStream(
  source: Readable,
  limits: BodyLimits,
  declared: BodyRefusal | undefined,
  chunks: Buffer[],
  sized: (n: number) => void,
): Promise<BodyRefusal | undefined> {
  return new Promise((resolve, reject) => {
    let refusal = declared;
    let size = 0;
    const ms = limits.idleTimeoutMs;
    const settle = (then: () => void): void => {
      clearTimeout(timer);
      source.off('data', onData).off('end', onEnd).off('error', onGone).off('close', onGone);
      then();
    };
    const timer =
      ms === undefined || ms <= 0
        ? undefined
        : setTimeout(
            () =>
              settle(() => {
                source.pause();
                resolve(refusal ?? 'timed_out');
              }),
            ms,
          );
    const onData = (chunk: Buffer): void => {
      timer?.refresh();
      if (refusal !== undefined) return; // dropped
      refusal = takeChunk(chunk, limits, size);
      if (refusal !== undefined) {
        limits.budget?.give(size);
        chunks.length = 0;
        size = 0;
      } else {
        size += chunk.length;
        chunks.push(bufferOf(chunk));
      }
      sized(size);
    };
    const onEnd = (): void => settle(() => resolve(refusal));
    const onGone = (error?: Error): void => settle(() => reject(error ?? new Error('the client closed the connection mid-upload')));
    source.on('data', onData).on('end', onEnd).on('error', onGone).on('close', onGone);
  });
}

/** Pulls the chunks into `chunks` (their total to `sized`) until the end, a refusal, or a stall. */
async function readChunks(
  iterator: AsyncIterator<Uint8Array>,
  limits: BodyLimits,
  declared: BodyRefusal | undefined,
  chunks: Buffer[],
  sized: (n: number) => void,
): Promise<BodyRefusal | undefined> {
  const { max, budget } = limits;
  let refusal = declared;
  let size = 0;
  for (;;) {
    const next = await nextWithin(iterator, limits.idleTimeoutMs);
    if (next === 'timed_out') refusal ??= 'timed_out';
    if (next === 'timed_out' || next.done === true) break;
    if (refusal !== undefined) continue; // dropped
    const chunk = next.value;
    if (size + chunk.length > max || (budget !== undefined && !budget.take(chunk.length))) {
      refusal = size + chunk.length > max ? 'too_large' : 'over_budget';
      budget?.give(size);
      chunks.length = 0;
      sized(0);
      continue;
    }
    size += chunk.length;
    sized(size);
    chunks.push(bufferOf(chunk));
  }
  return refusal;
}

/** The iterator's next result, or `timed_out` when none comes within `ms` (the pending pull is then left to settle unheard). */
async function nextWithin<T>(iterator: AsyncIterator<T>, ms: number | undefined): Promise<IteratorResult<T> | 'timed_out'> {
  if (ms === undefined || ms <= 0) return iterator.next();
  let timer: NodeJS.Timeout | undefined;
  const pending = iterator.next();
  const expired = new Promise<'timed_out'>((resolve) => {
    timer = setTimeout(() => resolve('timed_out'), ms);
  });
  try {
    const first = await Promise.race([pending, expired]);
    if (first === 'timed_out') pending.catch(() => undefined); // rejects when the connection closes
    return first;
  } finally {
    clearTimeout(timer);
  }
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
