/**
 * The request body bytes the proxy holds at once, across every connection: a body is buffered
 * whole (the engine may rewrite any byte of it), so without a cap forty stalled 30 MB uploads held
 * 1.2 GiB (issue 29). A body takes its bytes as they arrive and gives them back when its request
 * is done; one that would pass the cap is answered 429 (handle-request.ts) and its bytes dropped.
 *
 * No few bodies may take it all (issue 41: five uploads of about 27 MB each held the 128 MiB, and
 * every agent's request got a 429 for as long as they lasted): each body has a share, and a body
 * holding more than its share may grow only while a reserve stays free for the others. An agent's
 * request, a few MB, fits in its share and finds the reserve; big bodies take turns for the rest.
 */
export class BodyBudget {
  #held = 0;
  /** What a body past its share may not take: the bytes kept for bodies within theirs. */
  readonly reserve: number;

  /**
   * `max`: the bytes all bodies may hold at once. `share`: what one body may hold whatever the
   * others hold (the cap allowing); past it, a body grows only while `reserve` (four shares, at
   * most half the cap) stays free.
   */
  constructor(
    readonly max: number,
    readonly share: number = Number.POSITIVE_INFINITY,
  ) {
    this.reserve = Number.isFinite(share) ? Math.min(4 * share, Math.floor(max / 2)) : 0;
  }

  /** Takes `n` more bytes for a body that holds `held` already, or none and false when that would pass the cap or eat the reserve. */
  take(n: number, held = 0): boolean {
    if (this.#held + n > this.max) return false;
    if (held + n > this.share && this.#held + n > this.max - this.reserve) return false;
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
