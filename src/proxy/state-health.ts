/**
 * Whether the state directory is writable, as the proxy last found it. The proxy writes two kinds
 * of thing there: the store (an epoch's files and record, when a latch writes them) and the wire
 * log. Each is unavailable from its failed write until a write of the same kind works again, so a
 * wire line that still fits on a full disk does not declare the store writable while every latch
 * fails (the notes flapped so). The state is unavailable while either is; the change either way
 * is said once: a wire-log note (if the log itself can be written), one stderr line, and every
 * failed write is counted (`ctxshed_state_write_failures_total`).
 */
import type { WireNote } from '../state/wire-record.js';
import { errorText, outwardMessage } from '../errors.js';
import { StoreError } from '../store/index.js';

/** What a write to the state directory was: an epoch's files and record, or a wire-log line. */
export type StateWrite = 'store' | 'wire';

/** Where the changes are told besides the wire log; each absent by default (tests). */
export interface HealthOutlets {
  /** One line for a person (stderr in a running proxy), without a newline. */
  readonly log?: (line: string) => void;
  /** Counts each failed write. */
  readonly countFailure?: () => void;
}

/** What failed, in a person's words: the state directory, or the database of `--store`. */
type Failing = 'directory' | 'database';

export class StateHealth {
  readonly #unavailable = new Set<StateWrite>();
  /** What the last failure that made the state unavailable was, for the line that says it is back. */
  #failing: Failing = 'directory';
  /** Failures so far, so that a success learned late (a batched wire line) cannot undo a newer failure. */
  #failures = 0;

  constructor(
    private readonly note: (note: WireNote) => Promise<void>,
    private readonly now: () => string,
    private readonly outlets: HealthOutlets = {},
  ) {}

  /** Records that a write of `what` failed (by default the store: a latch's own writes and reads). */
  failed(error: unknown, what: StateWrite = 'store'): void {
    this.#failures++;
    this.outlets.countFailure?.();
    const was = this.failing;
    this.#unavailable.add(what);
    if (was) return;
    const text = errorText(error);
    // A store that cannot be reached is not a directory that cannot be written: say which it is.
    this.#failing = error instanceof StoreError && error.code === 'STORE_UNAVAILABLE' ? 'database' : 'directory';
    this.outlets.log?.(
      this.#failing === 'database'
        ? `ctxshed: ${text}; requests pass through unchanged until it answers`
        : `ctxshed: the state directory cannot be written (${text}); requests pass through unchanged until it can`,
    );
    const detail = outwardMessage(text); // the wire log is where it leaves the program
    this.note({ t: this.now(), note: 'state_unavailable', detail }).catch(() => undefined);
  }

  /**
   * A mark to hand to `succeeded` with a write started now: the wire log writes its lines in
   * batches, so a write may report its success after a later request has failed.
   */
  get mark(): number {
    return this.#failures;
  }

  /** Records that a write of `what` worked; with `since`, only if nothing failed after that mark. */
  succeeded(what: StateWrite, since?: number): void {
    if (!this.#unavailable.has(what) || (since !== undefined && since !== this.#failures)) return;
    this.#unavailable.delete(what);
    if (this.failing) return;
    const back = this.#failing === 'database' ? 'the store answers again' : 'the state directory is writable again';
    this.outlets.log?.(`ctxshed: ${back}`);
    this.note({ t: this.now(), note: 'state_recovered', detail: back }).catch(() => undefined);
  }

  get failing(): boolean {
    return this.#unavailable.size > 0;
  }
}
