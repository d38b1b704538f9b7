/**
 * `ctxshed replay`'s progress on stderr while its jobs run (replay-runs.ts): one line, drawn over
 * itself, when stderr is a terminal; nothing at all when it is not (a pipe, a file, a CI log). A
 * replay that ends within `DELAY_MS` draws nothing, and the line is wiped when the replay ends, so
 * the report that follows is all that stays on the screen.
 */

/** What the progress writes to: stderr, or a stand-in in tests. */
export interface ProgressStream {
  readonly isTTY?: boolean;
  readonly columns?: number;
  write(text: string): unknown;
}

/** No line before this long: a quick replay stays quiet. */
const DELAY_MS = 500;
/** At most one redraw per this long. */
const REDRAW_MS = 200;

/** The progress of one run of replay jobs. */
export class ReplayProgress {
  #sizes: number[] = [];
  #done: number[] = [];
  #finished = 0;
  #started = 0;
  #drawn = 0;
  #shown = false;

  constructor(
    private readonly stream: ProgressStream,
    private readonly now: () => number = Date.now,
  ) {}

  /** The jobs about to run, by the requests each replays. */
  start(sizes: readonly number[]): void {
    this.#sizes = [...sizes];
    this.#done = sizes.map(() => 0);
    this.#finished = 0;
    this.#started = this.now();
  }

  /** A request of job `job` replayed. */
  step(job: number): void {
    this.#done[job] = (this.#done[job] ?? 0) + 1;
    this.#draw(false);
  }

  /** Job `job` is done. */
  done(job: number): void {
    this.#done[job] = this.#sizes[job] ?? 0;
    this.#finished++;
    this.#draw(false);
  }

  /** The run is over: the line, if one was drawn, is wiped. */
  finish(): void {
    if (this.#shown) this.stream.write('\r\x1b[K');
    this.#shown = false;
  }

  /** The line as it reads now. */
  line(): string {
    const total = this.#sizes.reduce((a, b) => a + b, 0);
    const done = Math.min(
      total,
      this.#done.reduce((a, b) => a + b, 0),
    );
    const pct = total === 0 ? 100 : Math.floor((done / total) * 100);
    const seconds = Math.floor((this.now() - this.#started) / 1000);
    return (
      `ctxshed replay: ${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} requests replayed (${pct}%), ` +
      `${this.#finished} of ${this.#sizes.length} replays done, ${seconds} s`
    );
  }

  #draw(force: boolean): void {
    if (this.stream.isTTY !== true) return;
    const now = this.now();
    if (!force && (now - this.#started < DELAY_MS || now - this.#drawn < REDRAW_MS)) return;
    this.#drawn = now;
    this.#shown = true;
    const width = this.stream.columns !== undefined && this.stream.columns > 1 ? this.stream.columns - 1 : 79;
    this.stream.write(`\r${this.line().slice(0, width)}\x1b[K`);
  }
}
