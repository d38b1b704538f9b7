/** Reads a request body into memory, within its limits; or drops one nobody reads. */
import { Readable } from 'node:stream';
import type { BodyBudget } from './body-budget.js';
import { BodyPace, type PaceLimits, type PaceRefusal } from './body-pace.js';
import type { EdgeRequest } from './edge.js';

/**
 * What bounds one body: its size, its pace (body-pace.ts: the silence allowed between its bytes,
 * the time it may take whole, the rate it must keep), and the bytes all bodies may hold at once.
 */
export interface BodyLimits extends PaceLimits {
  readonly max: number;
  /** Shared by every connection of the proxy; the bytes of a body that comes back whole stay taken. */
  readonly budget?: BodyBudget | undefined;
  /** The clock the pace is kept by, in milliseconds; `performance.now` by default. */
  readonly now?: () => number;
}

/** Why a body was not read whole. */
export type BodyRefusal = 'too_large' | 'over_budget' | PaceRefusal;

/**
 * The body, or why not: `too_large` once it passes `max` bytes (or says it will, by its
 * content-length), `over_budget` when it would take the bytes in flight past the budget's cap (or
 * its reserve: body-budget.ts), `timed_out`, `deadline` or `too_slow` when it breaks its pace.
 * Past `max` or the cap the rest is read and dropped, not buffered (at its pace still): a client
 * still uploading when the connection closes gets a reset instead of the answer (RFC 9112 §9.6).
 * A body that broke its pace is left unread; its connection is closed after the answer. On every
 * refusal the bytes taken are given back. The caller gives back `body.length` once its request
 * is done.
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
    // A socket's body is read by its events, one timer for its pace; any other by pulls.
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
    if (chunks.length > 0) budget?.give(size); // broke its pace while still buffering
    return refusal;
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
}

/** What to do with one chunk: keep it, or refuse the body (its rest is then read and dropped). */
function takeChunk(chunk: Uint8Array, limits: BodyLimits, size: number): BodyRefusal | undefined {
  const { max, budget } = limits;
  if (size + chunk.length > max) return 'too_large';
  return budget !== undefined && !budget.take(chunk.length, size) ? 'over_budget' : undefined;
}

/**
 * `readChunks` for a node stream (a socket's request), with no promise or timer per chunk: the
 * chunks come as events, and one timer looks at the body's pace when a limit could next be broken.
 * A body that broke its pace leaves the stream paused; one whose client goes away rejects.
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
    const now = limits.now ?? (() => performance.now());
    const pace = new BodyPace(limits, now());
    let timer: NodeJS.Timeout | undefined;
    const settle = (then: () => void): void => {
      clearTimeout(timer);
      source.off('data', onData).off('end', onEnd).off('error', onGone).off('close', onGone);
      then();
    };
    const stop = (broken: PaceRefusal): void =>
      settle(() => {
        source.pause();
        resolve(refusal ?? broken);
      });
    const look = (): void => {
      const broken = pace.check(now());
      if (broken !== undefined) {
        stop(broken);
        return;
      }
      const wait = pace.nextCheckIn(now());
      if (wait !== undefined) timer = setTimeout(look, wait);
    };
    const onData = (chunk: Buffer): void => {
      const late = pace.saw(chunk.length, now());
      if (late !== undefined) {
        stop(late);
        return;
      }
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
    look();
  });
}

/** Pulls the chunks into `chunks` (their total to `sized`) until the end, a refusal, or a broken pace. */
async function readChunks(
  iterator: AsyncIterator<Uint8Array>,
  limits: BodyLimits,
  declared: BodyRefusal | undefined,
  chunks: Buffer[],
  sized: (n: number) => void,
): Promise<BodyRefusal | undefined> {
  const { budget } = limits;
  const now = limits.now ?? (() => performance.now());
  const pace = new BodyPace(limits, now());
  let refusal = declared;
  let size = 0;
  for (;;) {
    const next = await nextWithin(iterator, pace, now);
    if (typeof next === 'string') return refusal ?? next;
    if (next.done === true) return refusal;
    const chunk = next.value;
    const late = pace.saw(chunk.length, now());
    if (late !== undefined) return refusal ?? late; // readBody gives back what it held
    if (refusal !== undefined) continue; // dropped
    refusal = takeChunk(chunk, limits, size);
    if (refusal !== undefined) {
      budget?.give(size);
      chunks.length = 0;
      size = 0;
      sized(0);
      continue;
    }
    size += chunk.length;
    sized(size);
    chunks.push(bufferOf(chunk));
  }
}

/**
 * The iterator's next result, or the limit the body broke while it waited (the pending pull is
 * then left to settle unheard). Wakes when a limit could next be broken, and waits on if none was.
 */
async function nextWithin<T>(iterator: AsyncIterator<T>, pace: BodyPace, now: () => number): Promise<IteratorResult<T> | PaceRefusal> {
  const pending = iterator.next();
  for (;;) {
    const wait = pace.nextCheckIn(now());
    if (wait === undefined) return pending;
    let timer: NodeJS.Timeout | undefined;
    const woke = new Promise<'woke'>((resolve) => {
      timer = setTimeout(() => resolve('woke'), wait);
    });
    try {
      const first = await Promise.race([pending, woke]);
      if (first !== 'woke') return first;
    } finally {
      clearTimeout(timer);
    }
    const broken = pace.check(now());
    if (broken !== undefined) {
      pending.catch(() => undefined); // rejects when the connection closes
      return broken;
    }
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
