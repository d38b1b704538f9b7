/**
 * Whether the state directory is writable, as the proxy last found it. A failure is written to
 * the wire log once (if the log itself can be written), not once per request; so is the recovery.
 */
import type { WireNote } from '../state/wire-record.js';
import { errorText, outwardMessage } from '../errors.js';

export class StateHealth {
  #failing = false;

  constructor(
    private readonly note: (note: WireNote) => Promise<void>,
    private readonly now: () => string,
  ) {}

  /** Records that the state directory failed. */
  failed(error: unknown): void {
    if (this.#failing) return;
    this.#failing = true;
    const detail = outwardMessage(errorText(error)); // the wire log is where it leaves the program
    this.note({ t: this.now(), note: 'state_unavailable', detail }).catch(() => undefined);
  }

  /** Records that a write to the state directory worked again. */
  succeeded(): void {
    if (!this.#failing) return;
    this.#failing = false;
    this.note({ t: this.now(), note: 'state_recovered', detail: 'the state directory is writable again' }).catch(() => undefined);
  }

  get failing(): boolean {
    return this.#failing;
  }
}
