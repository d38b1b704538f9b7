/**
 * Which conversation records changed on disk since the table last read them, told by the
 * operating system instead of a `stat` per request. A record changes only when an epoch latches
 * (state/latch-epoch.ts: an atomic rename into `conversations/`, under the state lock), in this
 * process (the table adopts what it wrote) or in another proxy sharing the state directory: the
 * watch marks that record's key, and the table reads it again at its next request. Anything the
 * watch cannot vouch for (it failed, the OS named no file) falls back to the `stat`.
 */
import fs from 'node:fs';
import { isTempLeftover, parseConversationName, type StateDir } from '../state/layout.js';

/** A watch over `<state>/conversations/`; `undefined` from `watchRecords` where the OS offers none. */
export class RecordWatch {
  /** Keys whose record has not changed since their last `take`. */
  readonly #unchanged = new Set<string>();
  #healthy = true;

  constructor(private readonly watcher: fs.FSWatcher) {
    watcher.on('change', (_event, name) => {
      const key = typeof name === 'string' ? parseConversationName(name) : undefined;
      if (key !== undefined) this.#unchanged.delete(key);
      // No name (some platforms, some events), or a latch's temp file: any record may change.
      else if (typeof name !== 'string' || isTempLeftover(name)) this.#unchanged.clear();
      // Anything else (the folder itself removed or moved): the watch may see nothing more.
      else this.#healthy = false;
    });
    watcher.on('error', () => {
      this.#healthy = false;
    });
  }

  /**
   * Whether the record of `key` is unchanged since the last `take(key)`. Call it before reading
   * the record: a change during the read makes the next `take` say "changed".
   */
  take(key: string): boolean {
    const unchanged = this.#unchanged.has(key);
    if (this.#healthy) this.#unchanged.add(key);
    return this.#healthy && unchanged;
  }

  /** Stops watching; every later `take` says "changed". */
  close(): void {
    this.#healthy = false;
    this.#unchanged.clear();
    this.watcher.close();
  }
}

/** Starts watching the state directory's records; `undefined` when the watch cannot be had. */
export function watchRecords(state: StateDir): RecordWatch | undefined {
  try {
    // persistent: false: a watch never keeps the process alive on its own.
    return new RecordWatch(fs.watch(state.conversationsDir, { persistent: false }));
  } catch {
    return undefined;
  }
}
