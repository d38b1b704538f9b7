/**
 * The stdio transport of `ctxshed mcp`: one JSON-RPC message per line, in and out. It replaces
 * the SDK's StdioServerTransport, which closes itself, and so the server, on a line over its 10
 * MiB read buffer (the process then exits 0 with nothing on stderr and later requests go
 * unanswered). Here bad input never ends the server: a line too long is dropped as it streams
 * (never held past the limit) and answered with a JSON-RPC error when its id can be found, a line
 * that is not a JSON-RPC message is dropped; each gets one line on stderr.
 */
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { errorText, outwardMessage } from '../errors.js';

/** The longest line read, in bytes: the SDK's own stdio limit, so a client never gets less than it would there. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;
/** How much of each end of an oversized line is kept to find its id. */
const PEEK_BYTES = 4096;
/** JSON-RPC 2.0's code for a message that is not a valid request. */
export const INVALID_REQUEST = -32600;

type Id = string | number;

interface Oversized {
  head: Buffer;
  tail: Buffer;
  bytes: number;
}

/** A line-delimited JSON-RPC transport over a readable and a writable stream. */
export class LineTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  #chunks: Buffer[] = [];
  #size = 0;
  #oversized: Oversized | undefined;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    /** Where a line about dropped input goes (stderr): never stdout, which carries the protocol. */
    private readonly warn: (line: string) => void,
    private readonly maxLineBytes: number = MAX_LINE_BYTES,
  ) {}

  /** Starts reading lines. */
  async start(): Promise<void> {
    this.input.on('data', this.#ondata);
    this.input.on('error', this.#oninputerror);
  }

  /** Writes one message as one line; resolves once the stream has taken it. */
  send(message: JSONRPCMessage): Promise<void> {
    return this.#write(message);
  }

  /** Stops reading; the server's onclose follows. */
  async close(): Promise<void> {
    this.input.off('data', this.#ondata);
    this.input.off('error', this.#oninputerror);
    this.#chunks = [];
    this.#size = 0;
    this.#oversized = undefined;
    this.onclose?.();
  }

  readonly #oninputerror = (error: Error): void => this.onerror?.(error);

  readonly #ondata = (chunk: Buffer | string): void => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let start = 0;
    for (;;) {
      const newline = bytes.indexOf(0x0a, start);
      this.#add(bytes.subarray(start, newline < 0 ? bytes.length : newline));
      if (newline < 0) return;
      this.#endLine();
      start = newline + 1;
    }
  };

  /** Adds a piece of the current line, holding at most `maxLineBytes` of it. */
  #add(piece: Buffer): void {
    if (piece.length === 0) return;
    const over = this.#oversized;
    if (over !== undefined) {
      over.bytes += piece.length;
      over.tail = Buffer.from(Buffer.concat([over.tail, piece]).subarray(-PEEK_BYTES));
      return;
    }
    if (this.#size + piece.length <= this.maxLineBytes) {
      this.#chunks.push(piece);
      this.#size += piece.length;
      return;
    }
    const held = Buffer.concat([...this.#chunks, piece]);
    this.#oversized = { head: Buffer.from(held.subarray(0, PEEK_BYTES)), tail: Buffer.from(held.subarray(-PEEK_BYTES)), bytes: held.length };
    this.#chunks = [];
    this.#size = 0;
  }

  #endLine(): void {
    const over = this.#oversized;
    if (over !== undefined) {
      this.#oversized = undefined;
      this.#refuseOversized(over);
      return;
    }
    const line = Buffer.concat(this.#chunks).toString('utf8').replace(/\r$/, '');
    this.#chunks = [];
    this.#size = 0;
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = JSONRPCMessageSchema.parse(JSON.parse(line));
    } catch (error) {
      this.warn(outwardMessage(`mcp: dropped a line of ${Buffer.byteLength(line)} bytes that is not a JSON-RPC message (${firstLineOf(errorText(error))})`));
      return;
    }
    this.onmessage?.(message);
  }

  #refuseOversized(over: Oversized): void {
    const id = idOfCutLine(over.head.toString('latin1'), over.tail.toString('latin1'));
    const what = `a line of ${over.bytes} bytes, over the ${this.maxLineBytes}-byte limit`;
    this.warn(outwardMessage(`mcp: dropped ${what}${id === undefined ? ' (no id found to answer)' : `, answered as an error to id ${JSON.stringify(id)}`}`));
    if (id === undefined) return;
    const message = outwardMessage(`${what}, was dropped unread; send less in one message`);
    // Written directly, not through send(): it answers no request the server saw.
    void this.#write({ jsonrpc: '2.0', id, error: { code: INVALID_REQUEST, message } }).catch(() => undefined);
  }

  #write(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once('drain', resolve);
    });
  }
}

/**
 * The id of a message whose line was too long to read, from its two ends: a top-level `"id"` as
 * its first key (after `"jsonrpc"`), or as its last (the SDK's clients write it last). Undefined
 * when neither end shows one; an id in a nested object is never taken.
 */
export function idOfCutLine(head: string, tail: string): Id | undefined {
  const value =
    /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?[0-9]{1,15}|"[^"\\]{0,256}")\s*[,}]/.exec(head)?.[1] ??
    /[{,]\s*"id"\s*:\s*(-?[0-9]{1,15}|"[^"\\]{0,256}")\s*\}\s*\r?$/.exec(tail)?.[1];
  if (value === undefined) return undefined;
  return value.startsWith('"') ? value.slice(1, -1) : Number(value);
}

function firstLineOf(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}...` : line;
}
