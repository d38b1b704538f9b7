import { Duplex, PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { WebSocketConnection } from '../../../src/proxy/websocket/connection.js';
import { FrameParser } from '../../../src/proxy/websocket/frame-parser.js';
import { closePayload, encodeFrame, OPCODE } from '../../../src/proxy/websocket/frame-writer.js';

const MASK = Buffer.from([9, 8, 7, 6]);

/** A connection over an in-memory socket: what the client writes in, and what the server wrote, parsed. */
function harness(): {
  toServer: PassThrough;
  fromServer: () => ReturnType<FrameParser['push']>;
  closed: Promise<number>;
  messages: string[];
  ended: Promise<void>;
} {
  const toServer = new PassThrough();
  const written = new PassThrough();
  const socket = Duplex.from({ readable: toServer, writable: written });
  const parser = new FrameParser({ masked: false });
  const chunks: Buffer[] = [];
  written.on('data', (d: Buffer) => chunks.push(d));
  const messages: string[] = [];
  const closed = new Promise<number>((resolve) => {
    new WebSocketConnection(socket, { onMessage: (data) => messages.push(data.toString('utf8')), onClosed: (code) => resolve(code) });
  });
  const ended = new Promise<void>((resolve) => written.on('finish', () => resolve()));
  return { toServer, fromServer: () => parser.push(Buffer.concat(chunks.splice(0))), closed, messages, ended };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('WebSocketConnection', () => {
  it('should answer a ping with a pong carrying the same bytes (RFC 6455 §5.5.2)', async () => {
    const h = harness();
    h.toServer.write(encodeFrame(OPCODE.ping, Buffer.from('are you there'), { mask: MASK }));
    await tick();
    expect(h.fromServer()).toEqual([{ kind: 'pong', data: Buffer.from('are you there') }]);
  });

  it("should echo the client's close code and end the connection", async () => {
    const h = harness();
    h.toServer.write(encodeFrame(OPCODE.text, Buffer.from('hello'), { mask: MASK }));
    h.toServer.write(encodeFrame(OPCODE.close, closePayload(1000, 'done'), { mask: MASK }));
    expect(await h.closed).toBe(1000);
    expect(h.messages).toEqual(['hello']);
    expect(h.fromServer()).toEqual([{ kind: 'close', code: 1000, reason: '' }]);
  });

  it('should close with 1002 on a bad frame and take no message after it', async () => {
    const h = harness();
    h.toServer.write(encodeFrame(OPCODE.text, Buffer.from('unmasked')));
    await tick();
    expect(h.fromServer()).toEqual([expect.objectContaining({ kind: 'close', code: 1002 })]);
    expect(h.messages).toEqual([]);
  });

  it("should end its side at once when the client's side ends without a close frame (a client that exits)", async () => {
    const h = harness();
    h.toServer.end();
    expect(await h.closed).toBe(1006);
    // Bounded by the test's timeout: left half-open, the socket kept the server from closing (issue 41).
    await h.ended;
  });
});
