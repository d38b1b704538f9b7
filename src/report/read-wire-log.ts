/**
 * Reading the wire log (I/O). Streams `wire.jsonl` line by line and folds each line into a
 * WireTally, so memory stays flat however long the log is. Only complete lines are read: an
 * unfinished last line is a record still being appended, or one a crash cut short (WireLog
 * closes it with a torn-line marker on restart); either way it is not counted.
 */
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import readline from 'node:readline';
import { hasErrnoCode } from '../state/state-error.js';
import { classifyWireLine } from '../state/wire-line.js';
import { addWireEntry, newWireTally, type WireTally } from './wire-tally.js';

const TAIL_CHUNK_BYTES = 64 * 1024;

/** A wire log read up to `offset`, ready to fold in what is appended later. */
export class WireLogReader {
  tally: WireTally = newWireTally();
  /** Bytes read so far: always just after a newline (an unfinished line waits for the next look). */
  offset = 0;
  #inode: number | undefined;

  constructor(readonly file: string) {}

  /** Folds in the complete lines appended since the last call; starts over if the file shrank. */
  async catchUp(): Promise<WireTally> {
    let handle: fs.FileHandle;
    try {
      // O_NOFOLLOW: the log is read where the proxy writes it, never through a planted link.
      handle = await fs.open(this.file, constants.O_RDONLY | constants.O_NOFOLLOW);
    } catch (error) {
      if (!hasErrnoCode(error, 'ENOENT')) throw error;
      this.#reset();
      return this.tally;
    }
    try {
      const { size, ino } = await handle.stat();
      // Replaced or truncated: read it again from the top.
      if (size < this.offset || (this.#inode !== undefined && ino !== this.#inode)) this.#reset();
      this.#inode = ino;
      const end = await lastNewlineAt(handle, this.offset, size);
      if (end >= this.offset) {
        await foldLines(handle, this.offset, end, this.tally);
        this.offset = end + 1;
      }
      return this.tally;
    } finally {
      await handle.close();
    }
  }

  #reset(): void {
    this.tally = newWireTally();
    this.offset = 0;
    this.#inode = undefined;
  }
}

/** The whole wire log folded (an empty tally when there is no log yet). */
export async function readWireTally(file: string): Promise<WireTally> {
  return new WireLogReader(file).catchUp();
}

// The position of the last newline in [from, size), or from - 1 when there is none.
async function lastNewlineAt(handle: fs.FileHandle, from: number, size: number): Promise<number> {
  const buffer = Buffer.alloc(TAIL_CHUNK_BYTES);
  let end = size;
  while (end > from) {
    const start = Math.max(from, end - TAIL_CHUNK_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, end - start, start);
    const at = buffer.subarray(0, bytesRead).lastIndexOf(0x0a);
    if (at >= 0) return start + at;
    end = start;
  }
  return from - 1;
}

// Streams bytes [start, end] (end inclusive, a newline) through readline into the tally.
async function foldLines(handle: fs.FileHandle, start: number, end: number, tally: WireTally): Promise<void> {
  const input = handle.createReadStream({ start, end, autoClose: false, highWaterMark: 256 * 1024 });
  const lines = readline.createInterface({ input, crlfDelay: Infinity });
  await new Promise<void>((resolve, reject) => {
    input.on('error', reject);
    lines.on('line', (line) => {
      if (line !== '') addWireEntry(tally, classifyWireLine(line));
    });
    lines.on('close', resolve);
  });
}
