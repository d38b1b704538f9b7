/**
 * The request body bytes the proxy holds at once, across every connection: a body is buffered
 * whole (the engine may rewrite any byte of it), so without a cap forty stalled 30 MB uploads held
 * 1.2 GiB (issue 29). A body takes its bytes as they arrive and gives them back when its request
 * is done; one that would pass the cap is answered 429 (handle-request.ts) and its bytes dropped.
 */
export class BodyBudget {
  #held = 0;

  constructor(readonly max: number) {}

  /** Takes `n` bytes, or none and false when that would pass the cap. */
  take(n: number): boolean {
    if (this.#held + n > this.max) return false;
    this.#held += n;
    return true;
  }

  /** Gives back `n` bytes taken earlier. */
  give(n: number): void {
    this.#held = Math.max(0, this.#held - n);
  }

  /** The bytes held now. */
  get held(): number {
    return this.#held;
  }
}
