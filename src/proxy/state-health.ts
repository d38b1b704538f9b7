/**
 * Whether the state directory is writable, as the proxy last found it. A failure is written to
 * the wire log once (if the log itself can be written), not once per request; so is the recovery.
 */
import type { WireNote } from '../state/wire-record.js';
import { errorText, outwardMessage } from '../errors.js';

export class StateHealth {
  #failing = false;
  /** Failures so far, so that a success learned late (a batched wire line) cannot undo a newer failure. */
  #failures = 0;

  constructor(
    private readonly note: (note: WireNote) => Promise<void>,
    private readonly now: () => string,
  ) {}

  /** Records that the state directory failed. */
  failed(error: unknown): void {
    this.#failures++;
    if (this.#failing) return;
    this.#failing = true;
    const detail = outwardMessage(errorText(error)); // the wire log is where it leaves the program
    this.note({ t: this.now(), note: 'state_unavailable', detail }).catch(() => undefined);
  }

  /**
   * A mark to hand to `succeeded` with a write started now: the wire log writes its lines in
   * batches, so a write may report its success after a later request has failed.
   */
  get mark(): number {
    return this.#failures;
  }

  /** Records that a write to the state directory worked again; with `since`, only if nothing failed after that mark. */
  succeeded(since?: number): void {
    if (!this.#failing || (since !== undefined && since !== this.#failures)) return;
    this.#failing = false;
    this.note({ t: this.now(), note: 'state_recovered', detail: 'the state directory is writable again' }).catch(() => undefined);
  }

  get failing(): boolean {
    return this.#failing;
  }
}
