import { PassThrough } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { idOfCutLine, INVALID_REQUEST, LineTransport } from '../../src/mcp/line-transport.js';

const LIMIT = 64;

/** A transport over in-memory streams, with what it delivered, wrote and warned. */
async function started(): Promise<{ input: PassThrough; received: JSONRPCMessage[]; written: () => unknown[]; warnings: string[]; closed: () => boolean }> {
  const input = new PassThrough();
  const output = new PassThrough();
  let out = '';
  output.on('data', (d: Buffer) => (out += d.toString('utf8')));
  const received: JSONRPCMessage[] = [];
  const warnings: string[] = [];
  let closed = false;
  const transport = new LineTransport(input, output, (line) => warnings.push(line), LIMIT);
  transport.onmessage = (m) => received.push(m);
  transport.onclose = () => (closed = true);
  await transport.start();
  const written = (): unknown[] =>
    out
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as unknown);
  return { input, received, written, warnings, closed: () => closed };
}

const PING = { jsonrpc: '2.0', id: 7, method: 'ping' };

describe('LineTransport', () => {
  it('should deliver one message per line, whatever the chunks, and skip blank lines', async () => {
    const t = await started();
    const text = `${JSON.stringify(PING)}\r\n\n${JSON.stringify({ ...PING, id: 8 })}\n`;

    for (const ch of text) t.input.write(ch);

    expect(t.received).toEqual([PING, { ...PING, id: 8 }]);
    expect(t.warnings).toEqual([]);
  });

  it('should answer a line over the limit with an error to its id, and go on serving', async () => {
    const t = await started();
    const long = JSON.stringify({ method: 'tools/call', params: { x: 'y'.repeat(LIMIT * 3) }, jsonrpc: '2.0', id: 41 });

    t.input.write(long.slice(0, 50));
    t.input.write(`${long.slice(50)}\n${JSON.stringify(PING)}\n`);

    expect(t.received).toEqual([PING]);
    expect(t.written()).toEqual([
      {
        jsonrpc: '2.0',
        id: 41,
        error: { code: INVALID_REQUEST, message: expect.stringMatching(/^ctxshed: a line of \d+ bytes, over the 64-byte limit, was dropped unread/) },
      },
    ]);
    expect(t.warnings).toEqual([expect.stringMatching(/^ctxshed: mcp: dropped a line of \d+ bytes, over the 64-byte limit, answered as an error to id 41$/)]);
    expect(t.closed()).toBe(false);
  });

  it('should drop a line over the limit whose id it cannot find, with one line on stderr and nothing on stdout', async () => {
    const t = await started();

    t.input.write(`${'x'.repeat(LIMIT * 2)}\n${JSON.stringify(PING)}\n`);

    expect(t.received).toEqual([PING]);
    expect(t.written()).toEqual([]);
    expect(t.warnings).toHaveLength(1);
    expect(t.warnings[0]).toContain('no id found to answer');
  });

  it('should drop malformed JSON and a message that is not JSON-RPC, one stderr line each, and go on', async () => {
    const t = await started();

    t.input.write(`{"jsonrpc":"2.0","id":1,\n[1,2]\n${JSON.stringify(PING)}\n`);

    expect(t.received).toEqual([PING]);
    expect(t.written()).toEqual([]);
    expect(t.warnings).toHaveLength(2);
    expect(t.warnings.every((w) => w.startsWith('ctxshed: mcp: dropped a line of'))).toBe(true);
    expect(t.closed()).toBe(false);
  });

  it('should take a line of exactly the limit', async () => {
    const t = await started();
    const line = JSON.stringify({ ...PING, method: 'p'.repeat(LIMIT - JSON.stringify(PING).length + 4) });

    expect(Buffer.byteLength(line)).toBe(LIMIT);
    t.input.write(`${line}\n`);

    expect(t.received).toHaveLength(1);
  });
});

describe('idOfCutLine', () => {
  it.each([
    ['{"jsonrpc":"2.0","id":5,"method":"x","params":{', '', 5],
    ['{"id":"abc","method":"x"', '', 'abc'],
    ['{"method":"tools/call","params":{"a":"', 'zzz"}},"jsonrpc":"2.0","id":12}', 12],
    ['{"method":"x","params":{"', 'zz"},"id":-3}\r', -3],
  ])('should find the id of %s ... %s', (head, tail, id) => {
    expect(idOfCutLine(head, tail)).toBe(id);
  });

  it.each([
    ['{"method":"x","params":{"id":5,', 'zz"}}'],
    ['{"method":"x","params":{"', 'zz","id":5}}'],
    ['xxxx', 'yyyy'],
    ['{"jsonrpc":"2.0","method":"notifications/x","params":{"', '"}}'],
  ])('should find none in %s ... %s (nested, absent or a notification)', (head, tail) => {
    expect(idOfCutLine(head, tail)).toBeUndefined();
  });
});
