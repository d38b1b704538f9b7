/**
 * The pace a request body must keep (issue 41): a body is buffered whole before anything is
 * forwarded, so one that arrives slowly holds its bytes of the body budget (body-budget.ts) for as
 * long as it lasts. Five uploads that sent most of 32 MB and then a byte every 20 s held the
 * budget for good, and every agent's request got a 429. Three limits, any of which ends the body:
 *
 * - idle: no byte for `idleTimeoutMs` (`timed_out`);
 * - deadline: not whole `deadlineMs` after its first byte was awaited (`deadline`);
 * - rate: fewer than `minBytesPerSecond` × `rateWindowMs` bytes in any whole window of
 *   `rateWindowMs` (`too_slow`); a body that ends within its first window is never judged by it.
 *
 * The clock is passed in, as milliseconds (`performance.now()` in the proxy).
 */

/** The limits; absent or 0: that limit is off. */
export interface PaceLimits {
  readonly idleTimeoutMs?: number | undefined;
  readonly deadlineMs?: number | undefined;
  readonly minBytesPerSecond?: number | undefined;
  readonly rateWindowMs?: number | undefined;
}

/** Which limit a body broke. */
export type PaceRefusal = 'timed_out' | 'deadline' | 'too_slow';

/** One body's pace, fed the bytes as they arrive and asked when to look again. */
export class BodyPace {
  readonly #limits: PaceLimits;
  readonly #start: number;
  #lastByte: number;
  #windowStart: number;
  #windowBytes = 0;

  constructor(limits: PaceLimits, now: number) {
    this.#limits = limits;
    this.#start = now;
    this.#lastByte = now;
    this.#windowStart = now;
  }

  /** `n` bytes arrived at `now`; returns the limit a window that ended before them broke, if any. */
  saw(n: number, now: number): PaceRefusal | undefined {
    const late = this.#roll(now);
    this.#lastByte = now;
    this.#windowBytes += n;
    return late;
  }

  /** The limit the body has broken by `now`, if any. */
  check(now: number): PaceRefusal | undefined {
    const { idleTimeoutMs: idle, deadlineMs: deadline } = this.#limits;
    if (on(deadline) && now - this.#start >= deadline) return 'deadline';
    if (on(idle) && now - this.#lastByte >= idle) return 'timed_out';
    return this.#roll(now);
  }

  /** Milliseconds from `now` until a limit could next be broken; undefined when every limit is off. */
  nextCheckIn(now: number): number | undefined {
    const { idleTimeoutMs: idle, deadlineMs: deadline, rateWindowMs: window } = this.#limits;
    const at = [
      on(idle) ? this.#lastByte + idle : undefined,
      on(deadline) ? this.#start + deadline : undefined,
      this.#rateOn() && on(window) ? this.#windowStart + window : undefined,
    ].filter((t): t is number => t !== undefined);
    if (at.length === 0) return undefined;
    return Math.max(1, Math.ceil(Math.min(...at) - now));
  }

  /** What the last window the body was judged by carried, for the refusal's message. */
  get windowBytes(): number {
    return this.#windowBytes;
  }

  /** Judges each window that has ended by `now`, and starts the next. */
  #roll(now: number): PaceRefusal | undefined {
    if (!this.#rateOn()) return undefined;
    const window = this.#limits.rateWindowMs as number;
    const floor = ((this.#limits.minBytesPerSecond as number) * window) / 1000;
    while (now - this.#windowStart >= window) {
      if (this.#windowBytes < floor) return 'too_slow';
      this.#windowStart += window;
      this.#windowBytes = 0;
    }
    return undefined;
  }

  #rateOn(): boolean {
    return on(this.#limits.minBytesPerSecond) && on(this.#limits.rateWindowMs);
  }
}

function on(limit: number | undefined): limit is number {
  return limit !== undefined && limit > 0;
}
