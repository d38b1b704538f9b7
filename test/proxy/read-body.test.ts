import { describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { BodyBudget } from '../../src/proxy/body-budget.js';
import { readBody } from '../../src/proxy/read-body.js';

/** A body's parts: bytes, an error (the client gone), or `stall` (no byte ever again). */
type Part = Buffer | Error | 'stall';

const never: AsyncIterable<Uint8Array> = { [Symbol.asyncIterator]: () => ({ next: () => new Promise(() => undefined) }) };

/** The body as an async iterable, pulled. */
async function* pulled(...parts: Part[]): AsyncIterable<Uint8Array> {
  for (const part of parts) {
    if (part === 'stall') yield* never;
    else if (part instanceof Error) throw part;
    else yield part;
  }
}

/** The body as a node stream, as a socket's request is: read by its events. */
function streamed(...parts: Part[]): Readable {
  const body = new Readable({ read: () => undefined });
  setImmediate(() => {
    for (const part of parts) {
      if (part === 'stall') return;
      if (part instanceof Error) return void body.destroy(part);
      body.push(part);
    }
    body.push(null);
  });
  return body;
}

describe.each([
  ['pulled', pulled],
  ['a stream', streamed],
])('readBody, the body %s', (_, chunks) => {
  it('should read a body whole and keep its bytes taken from the budget until the caller gives them back', async () => {
    const budget = new BodyBudget(100);

    const body = await readBody({ headers: {}, body: chunks(Buffer.from('abc'), Buffer.from('def')) }, { max: 10, budget });

    expect(body).toEqual(Buffer.from('abcdef'));
    expect(budget.held).toBe(6);
  });

  it('should give back what a body took when its client goes away mid-upload (a closed socket)', async () => {
    const budget = new BodyBudget(100);
    const gone = Object.assign(new Error('aborted'), { code: 'ECONNRESET' });

    await expect(readBody({ headers: {}, body: chunks(Buffer.alloc(40), gone) }, { max: 1000, budget })).rejects.toBe(gone);

    expect(budget.held).toBe(0);
  });

  it('should refuse a body over the cap of bytes in flight, read and drop its rest, and give back what it took', async () => {
    const budget = new BodyBudget(100);
    budget.take(70);

    const body = await readBody({ headers: {}, body: chunks(Buffer.alloc(20), Buffer.alloc(20), Buffer.alloc(20)) }, { max: 1000, budget });

    expect(body).toBe('over_budget');
    expect(budget.held).toBe(70);
  });

  it('should refuse a body over its size as too_large before the cap, and give back what it took', async () => {
    const budget = new BodyBudget(1000);

    const body = await readBody({ headers: {}, body: chunks(Buffer.alloc(60), Buffer.alloc(60)) }, { max: 100, budget });

    expect(body).toBe('too_large');
    expect(budget.held).toBe(0);
  });

  it('should time out a body that stalls, give back what it took, and leave the stalled pull unheard', async () => {
    const budget = new BodyBudget(1000);
    const body = await readBody({ headers: {}, body: chunks(Buffer.alloc(50), 'stall') }, { max: 1000, budget, idleTimeoutMs: 5 });

    expect(body).toBe('timed_out');
    expect(budget.held).toBe(0);
  });

  it('should take a body handed whole from the budget, or refuse it when it does not fit', async () => {
    const budget = new BodyBudget(10);

    const fits = await readBody({ headers: {}, body: Buffer.alloc(8) }, { max: 100, budget });
    const over = await readBody({ headers: {}, body: Buffer.alloc(8) }, { max: 100, budget });

    expect(fits).toHaveLength(8);
    expect(over).toBe('over_budget');
    expect(budget.held).toBe(8);
  });
});
