/**
 * A count of slots, taken in turn: at most `size` holders at once, the rest queued first come,
 * first served. pg-db.ts keeps its transactions (latches, bring-back counts) to fewer connections
 * than its pool has, so a request that only reads a record never waits behind a crowd of latches.
 */
export class Slots {
  #free: number;
  readonly #waiting: Array<() => void> = [];

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`slots need a whole size of at least 1, got ${size}`);
    this.#free = size;
  }

  /** Runs `work` once a slot is free, and frees the slot when it settles. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.#free > 0) this.#free--;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = this.#waiting.shift();
      if (next === undefined) this.#free++;
      else next();
    }
  }

  /** Holders waiting for a slot now (for tests). */
  get queued(): number {
    return this.#waiting.length;
  }
}
