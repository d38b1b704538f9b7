/**
 * The WebSocket side of the scripted OpenAI client (openai-scripted-client.ts): a client socket
 * by hand (RFC 6455, the proxy's own frame parser and writer), masked as a client's must be.
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { type FrameEvent, FrameParser } from '../../src/proxy/websocket/frame-parser.js';
import { closePayload, encodeFrame, OPCODE } from '../../src/proxy/websocket/frame-writer.js';

/** A client socket: text messages in and out, and how it closed. */
export interface TestSocket {
  /** Sends one text message, masked. */
  send(text: string): void;
  /** Writes bytes as they are (a bad frame, for a test). */
  sendRaw(bytes: Buffer): void;
  /** The next text message, or undefined once the socket closed. */
  next(): Promise<string | undefined>;
  /** Sends a close frame. */
  close(code?: number): void;
  /** The code of the server's close frame (undefined without one), once the TCP connection is gone. */
  readonly closed: Promise<number | undefined>;
}

/** Opens a WebSocket to `url` (`http://127.0.0.1:N/v1/responses`); rejects with the status line when it is not accepted. */
export function openWebSocket(url: string, headers: Readonly<Record<string, string>> = {}): Promise<TestSocket> {
  const target = new URL(url);
  const socket = net.connect(Number(target.port), target.hostname);
  const key = randomBytes(16).toString('base64');
  const lines = [
    `GET ${target.pathname} HTTP/1.1`,
    `Host: ${target.host}`,
    'Connection: Upgrade',
    'Upgrade: websocket',
    'Sec-WebSocket-Version: 13',
    `Sec-WebSocket-Key: ${key}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  return new Promise((resolve, reject) => {
    let head = Buffer.alloc(0);
    const onData = (d: Buffer): void => {
      head = Buffer.concat([head, d]);
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) return;
      socket.off('data', onData);
      const status = head.toString('latin1').split('\r\n')[0] ?? '';
      if (!status.startsWith('HTTP/1.1 101')) {
        socket.destroy();
        reject(new Error(status));
        return;
      }
      resolve(clientSocket(socket, head.subarray(end + 4)));
    };
    socket.on('data', onData);
    socket.on('error', reject);
  });
}

function clientSocket(socket: net.Socket, rest: Buffer): TestSocket {
  const parser = new FrameParser({ masked: false });
  const messages: string[] = [];
  const waiting: Array<(m: string | undefined) => void> = [];
  let closeCode: number | undefined;
  let ended = false;
  const take = (events: FrameEvent[]): void => {
    for (const e of events) {
      if (e.kind === 'close') closeCode = e.code;
      if (e.kind !== 'message') continue;
      const text = e.data.toString('utf8');
      const w = waiting.shift();
      if (w === undefined) messages.push(text);
      else w(text);
    }
  };
  const closed = new Promise<number | undefined>((resolve) => {
    socket.on('close', () => {
      ended = true;
      for (const w of waiting.splice(0)) w(undefined);
      resolve(closeCode);
    });
  });
  socket.on('error', () => undefined);
  socket.on('data', (d: Buffer) => take(parser.push(d)));
  take(parser.push(rest));
  const mask = (): Buffer => randomBytes(4);
  return {
    send: (text) => socket.write(encodeFrame(OPCODE.text, Buffer.from(text, 'utf8'), { mask: mask() })),
    sendRaw: (bytes) => socket.write(bytes),
    next: () => {
      const m = messages.shift();
      if (m !== undefined || ended) return Promise.resolve(m);
      return new Promise((resolve) => waiting.push(resolve));
    },
    close: (code = 1000) => socket.write(encodeFrame(OPCODE.close, closePayload(code, ''), { mask: mask() })),
    closed,
  };
}

/** Reads events off the socket to the end of one answer, as an SSE body: 200 when it completed, else the error's status (502: the socket closed). */
export async function readAnswer(socket: TestSocket): Promise<{ status: number; body: string }> {
  const lines: string[] = [];
  for (;;) {
    const text = await socket.next();
    if (text === undefined) return { status: 502, body: lines.join('') };
    lines.push(`data: ${text}\n\n`);
    const event = JSON.parse(text) as { type?: string; status?: number };
    if (event.type === 'response.completed') return { status: 200, body: lines.join('') };
    if (event.type === 'response.failed' || event.type === 'response.incomplete') return { status: 200, body: lines.join('') };
    if (event.type === 'error') return { status: event.status ?? 500, body: lines.join('') };
  }
}
