/**
 * One accepted WebSocket on a socket (RFC 6455): frames in through the parser, messages out as
 * single text frames, a ping answered with a pong (§5.5.2), and the closing handshake (§7): a
 * close from the client is echoed and the TCP connection ended; a close of our own is sent, then
 * the socket ended once the client's close comes back or a short grace runs out.
 */
import type { Duplex } from 'node:stream';
import { type FrameEvent, FrameParser } from './frame-parser.js';
import { CLOSE_CODE, closePayload, encodeFrame, OPCODE } from './frame-writer.js';

/** How long a close of our own waits for the client's before the socket is ended anyway. */
export const CLOSE_GRACE_MS = 2_000;

/** What the connection tells its owner. */
export interface ConnectionEvents {
  /** A whole message from the client. */
  onMessage(data: Buffer, binary: boolean): void;
  /** The connection is over: how (the close code sent or received, 1006 when the socket just went), and why. */
  onClosed(code: number, detail: string): void;
  /** The client broke the protocol; the connection is being closed with `closeCode`. */
  onViolation?(closeCode: number, detail: string): void;
}

/** Options of the connection. */
export interface ConnectionOptions {
  readonly maxMessageBytes?: number;
}

/** The server side of one WebSocket. Never throws on its socket's account. */
export class WebSocketConnection {
  private readonly parser: FrameParser;
  private closing = false;
  private closed = false;
  private grace: NodeJS.Timeout | undefined;
  /** The close we sent first, reported once the client's answers it. */
  private closeCode: { code: number; reason: string } | undefined;

  constructor(
    private readonly socket: Duplex,
    private readonly events: ConnectionEvents,
    options: ConnectionOptions = {},
  ) {
    this.parser = new FrameParser({ masked: true, ...(options.maxMessageBytes === undefined ? {} : { maxMessageBytes: options.maxMessageBytes }) });
    socket.on('data', (chunk: Buffer) => this.feed(chunk));
    socket.on('error', () => this.finish(1006, 'the socket failed'));
    socket.on('close', () => this.finish(1006, 'the socket closed'));
    // The client's half of the TCP connection is gone (a client that exits sends no close frame):
    // end ours at once (§7.1.1: the server closes the connection). Left half-open, the socket
    // reads nothing and so keeps no process alive, yet it keeps the server from closing: a
    // `rescue` whose child had exited waited on it forever (issue 41).
    socket.on('end', () => this.end(1006, 'the client ended the connection without a close frame'));
  }

  /**
   * Resolves once the socket is closed; one still open after `graceMs` is destroyed. The timer
   * holds the process open, so a caller awaiting this always goes on.
   */
  gone(graceMs: number): Promise<void> {
    if (this.socket.destroyed) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.socket.destroy(), graceMs);
      this.socket.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Takes bytes read off the socket (and those node read past the upgrade request's head). */
  feed(chunk: Buffer): void {
    for (const event of this.parser.push(chunk)) this.take(event);
  }

  /** Whether messages can still be sent. */
  get open(): boolean {
    return !this.closing && !this.closed && this.socket.writable;
  }

  /** Sends one text message as one frame; resolves once the socket takes more (backpressure). */
  async sendText(text: string): Promise<void> {
    if (!this.open) return;
    if (this.socket.write(encodeFrame(OPCODE.text, Buffer.from(text, 'utf8')))) return;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        this.socket.off('drain', done);
        this.socket.off('close', done);
        resolve();
      };
      this.socket.once('drain', done);
      this.socket.once('close', done);
    });
  }

  /** Starts the closing handshake with `code` (§7.1.2). */
  close(code: number, reason: string): void {
    if (this.closing || this.closed) return;
    this.closing = true;
    this.write(encodeFrame(OPCODE.close, closePayload(code, reason)));
    this.grace = setTimeout(() => this.end(code, reason), CLOSE_GRACE_MS);
    this.grace.unref();
    this.closeCode = { code, reason };
  }

  private take(event: FrameEvent): void {
    switch (event.kind) {
      case 'message':
        if (!this.closing) this.events.onMessage(event.data, event.binary);
        return;
      case 'ping':
        this.write(encodeFrame(OPCODE.pong, event.data));
        return;
      case 'pong':
        return;
      case 'close':
        this.answerClose(event.code, event.reason);
        return;
      case 'violation':
        this.events.onViolation?.(event.closeCode, event.detail);
        this.close(event.closeCode, event.detail);
        return;
    }
  }

  /** The client's close: echoed with its code (§5.5.1) unless ours went first, then the TCP connection ended (§7.1.1: the server ends it). */
  private answerClose(code: number | undefined, reason: string): void {
    if (!this.closing) {
      this.closing = true;
      this.write(encodeFrame(OPCODE.close, code === undefined ? Buffer.alloc(0) : closePayload(code, '')));
      this.end(code ?? 1005, reason);
      return;
    }
    const mine = this.closeCode ?? { code: code ?? CLOSE_CODE.normal, reason };
    this.end(mine.code, mine.reason);
  }

  private end(code: number, detail: string): void {
    this.socket.end();
    this.finish(code, detail);
  }

  private finish(code: number, detail: string): void {
    if (this.closed) return;
    this.closed = true;
    if (this.grace !== undefined) clearTimeout(this.grace);
    if (!this.socket.destroyed) setTimeout(() => this.socket.destroy(), CLOSE_GRACE_MS).unref();
    this.events.onClosed(code, detail);
  }

  private write(frame: Buffer): void {
    if (this.socket.writable) this.socket.write(frame);
  }
}
