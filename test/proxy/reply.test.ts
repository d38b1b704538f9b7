import { describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { bytesBody, cutBody, Reply } from '../../src/proxy/reply.js';

async function read(body: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

describe('Reply', () => {
  it('should hand on the first answer, and refuse a second', async () => {
    const reply = new Reply();

    const first = reply.answerBytes(200, { 'content-type': 'text/plain' }, Buffer.from('ab'), 'OK');
    const second = reply.answerBytes(502, {}, Buffer.from('late'));
    const head = await reply.head;

    expect([first, second, reply.answered]).toEqual([true, false, true]);
    expect(head).toMatchObject({ status: 200, statusMessage: 'OK', headers: { 'content-type': 'text/plain' } });
    expect(await read(head.body)).toBe('ab');
  });

  it('should give nothing once the client is gone', () => {
    const gone = new AbortController();
    const reply = new Reply(gone.signal);

    gone.abort();

    expect(reply.gone).toBe(true);
    expect(reply.answerBytes(200, {}, Buffer.from('a'))).toBe(false);
    expect(reply.answered).toBe(false);
  });

  it('should cut a body off mid-way: its reader throws', async () => {
    const reply = new Reply();
    const body = new Readable({ read: () => undefined });
    reply.answer({ status: 200, statusMessage: undefined, headers: {}, body });
    body.push(Buffer.from('a'));

    reply.cut('upstream went away');

    await expect(read((await reply.head).body)).rejects.toThrow(/upstream went away/);
  });

  it('should refuse a head node could not send, as node does', () => {
    expect(() => new Reply().answerBytes(200, {}, Buffer.alloc(0), 'bad\r\nreason')).toThrow();
    expect(() => new Reply().answerBytes(200, { 'x-bad': 'a\nb' }, Buffer.alloc(0))).toThrow();
    expect(() => new Reply().answerBytes(42, {}, Buffer.alloc(0))).toThrow();
  });

  it('should make whole and cut-off bodies', async () => {
    expect(await read(bytesBody(Buffer.from('xyz')))).toBe('xyz');
    expect(await read(bytesBody(Buffer.alloc(0)))).toBe('');
    await expect(read(cutBody('gone'))).rejects.toThrow(/gone/);
  });

  it('should never make an uncaught exception of a body cut before anyone reads it (the proxy would die)', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown): void => {
      uncaught.push(error);
    };
    process.on('uncaughtException', onUncaught);
    try {
      const early = cutBody('the request ended without a response');
      const reply = new Reply();
      reply.answer({ status: 200, statusMessage: undefined, headers: {}, body: new Readable({ read: () => undefined }) });
      reply.cut('upstream broke off');
      await new Promise((resolve) => setImmediate(resolve));
      expect(early.destroyed).toBe(true);
      expect((await reply.head).body.destroyed).toBe(true);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(uncaught).toEqual([]);
  });
});
