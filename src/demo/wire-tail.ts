/**
 * Follows `<state>/wire.jsonl` from where it ended when the demo began, and hands back the
 * records of one conversation in order. The demo reports what the proxy logged, not what it
 * holds in memory.
 */
import fs from 'node:fs/promises';
import type { WireRecord } from '../state/wire-record.js';
import { readsFullness } from '../core/index.js';

/** How often to look for the next record: the proxy appends it just after the response ends. */
const POLL_MS = 5;
/** A record that has not come by then will not come: something is wrong with the proxy. */
const GIVE_UP_MS = 15_000;

/** Reads new complete lines of a wire log. */
export class WireTail {
  #offset: number;
  #pending: WireRecord[] = [];

  private constructor(
    private readonly file: string,
    offset: number,
  ) {
    this.#offset = offset;
  }

  /** A tail that starts at the current end of `file` (0 when it does not exist yet). */
  static async at(file: string): Promise<WireTail> {
    const size = await fs.stat(file).then(
      (s) => s.size,
      () => 0,
    );
    return new WireTail(file, size);
  }

  /** The next model-call record of conversation `key`; waits for the proxy to write it. */
  async next(key: string): Promise<WireRecord> {
    const deadline = Date.now() + GIVE_UP_MS;
    for (;;) {
      const at = this.#pending.findIndex((r) => r.key === key && readsFullness(r.route));
      if (at >= 0) return this.#pending.splice(at, 1)[0]!;
      if (!(await this.#readMore())) {
        if (Date.now() > deadline) throw new Error(`no wire record for the demo's request in ${this.file} after ${GIVE_UP_MS / 1000} s`);
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    }
  }

  async #readMore(): Promise<boolean> {
    const handle = await fs.open(this.file, 'r').catch(() => undefined);
    if (handle === undefined) return false;
    try {
      const { size } = await handle.stat();
      if (size <= this.#offset) return false;
      const chunk = Buffer.alloc(size - this.#offset);
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, this.#offset);
      // Only whole lines: the proxy writes each record as one line in one write.
      const end = chunk.subarray(0, bytesRead).lastIndexOf(0x0a) + 1;
      if (end === 0) return false;
      this.#offset += end;
      for (const line of chunk.subarray(0, end).toString('utf8').split('\n')) {
        const record = parseLine(line);
        if (record !== undefined) this.#pending.push(record);
      }
      return true;
    } finally {
      await handle.close();
    }
  }
}

function parseLine(line: string): WireRecord | undefined {
  if (line === '') return undefined;
  try {
    const value = JSON.parse(line) as unknown;
    // Notes (state_unavailable ...) and torn-line markers have no route: not request records.
    return typeof value === 'object' && value !== null && 'route' in value ? (value as WireRecord) : undefined;
  } catch {
    return undefined;
  }
}
