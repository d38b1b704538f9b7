import { describe, expect, it } from 'vitest';
import { EDGE_HIGH_WATER_MARK_BYTES, EdgeResponseSink } from '../../src/proxy/edge-response-sink.js';

describe('EdgeResponseSink', () => {
  it('should hand on the head and the chunks in order, and finish once the last is pulled', async () => {
    const sink = new EdgeResponseSink();
    let finished = false;

    sink.writeHead(200, 'OK', { 'content-type': 'text/event-stream' });
    sink.write(Buffer.from('a'));
    sink.end(Buffer.from('b'), () => (finished = true));
    const head = await sink.head;
    const chunks: string[] = [];
    for await (const chunk of head.body) chunks.push(Buffer.from(chunk).toString());

    expect(head).toMatchObject({ status: 200, statusMessage: 'OK', headers: { 'content-type': 'text/event-stream' } });
    expect(chunks).toEqual(['a', 'b']);
    expect(finished).toBe(true);
    expect(sink.writableFinished).toBe(true);
  });

  it('should ask the writer to wait past the high-water mark, and say drain once the reader took it all', async () => {
    const sink = new EdgeResponseSink();
    let drained = 0;
    sink.writeHead(200, undefined, {});

    const first = sink.write(Buffer.alloc(EDGE_HIGH_WATER_MARK_BYTES - 1));
    const second = sink.write(Buffer.alloc(1));
    sink.once('drain', () => drained++);
    const reader = (await sink.head).body[Symbol.asyncIterator]();
    await reader.next();
    const drainedAfterOne = drained;
    await reader.next();

    expect([first, second]).toEqual([true, false]);
    expect([drainedAfterOne, drained]).toEqual([0, 1]);
  });

  it('should close, and throw on the next pull, when the client goes away', async () => {
    const gone = new AbortController();
    const sink = new EdgeResponseSink(gone.signal);
    let closed = false;
    sink.on('close', () => (closed = true));
    sink.writeHead(200, undefined, {});
    sink.write(Buffer.from('a'));

    gone.abort();

    expect(closed).toBe(true);
    expect(sink.writableFinished).toBe(false);
    await expect((await sink.head).body[Symbol.asyncIterator]().next()).rejects.toThrow(/cut off/);
  });

  it('should refuse a head node could not send, as node does', () => {
    expect(() => new EdgeResponseSink().writeHead(200, 'bad\r\nreason', {})).toThrow();
    expect(() => new EdgeResponseSink().writeHead(200, undefined, { 'x-bad': 'a\nb' })).toThrow();
    expect(() => new EdgeResponseSink().writeHead(42, undefined, {})).toThrow();
  });
});
