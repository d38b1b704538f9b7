/**
 * What the engine knows of each conversation: its record (epochs) as on disk, and its last usage
 * reading. Records are re-read whenever their stamp changes, so several proxies sharing one store
 * apply each other's epochs. A change is noticed by the store's stamp of the record on each
 * request (a `stat` of its file, or its row's version in Postgres), or, with a watch
 * (record-watch.ts, the proxy's, on a state directory), only when the watch says it changed.
 */
import { frozenItemsOf, kindOfConversation, NO_ITEMS, type KindTag, type FrozenItems, type FullnessReading } from '../core/index.js';
import type { ConversationRecord } from '../core/epoch-types.js';
import type { StateDir } from '../state/layout.js';
import { fsStore, type ConversationStore } from '../store/index.js';
import type { RecordWatch } from './record-watch.js';

/** One conversation as the engine holds it. */
export interface ConversationEntry {
  readonly key: string;
  record: ConversationRecord | undefined;
  /**
   * What the record's epochs froze, by kind (core/epochs/frozen-items.ts): blocks and thinking
   * blocks in ordinal order, spans in latch (and message) order.
   */
  items: FrozenItems;
  /** The conversation's kind: its first epoch's that is not a correction (core/epochs/kind-info.ts `kindOfConversation`); undefined without epochs. */
  kind: KindTag | undefined;
  reading: FullnessReading | undefined;
  /** Latches of this conversation run one at a time in this process (the lock covers others). */
  latching: Promise<unknown>;
  /** The record file's identity when last read, to notice another process's writes. */
  fileStamp: string;
  /**
   * When this process last prepared a model call of the conversation (the engine's clock, ms): the
   * gap since then says whether the cache is cold anyway (core/cache-cold.ts). Absent: none yet.
   */
  lastRequestMs?: number;
  /** This process's write of the last reading to a shared store, awaited before the next read (so it reads its own). */
  readingWrite?: Promise<void>;
  /** Tool calls already counted as refaults, so a resent or retried request never counts one twice. */
  readonly refaulted: Set<string>;
}

/** A conversation as one request saw it: values only, so nothing outside the engine holds its live entry. */
export interface ConversationView {
  readonly record: ConversationRecord | undefined;
  readonly items: FrozenItems;
  readonly reading: FullnessReading | undefined;
}

/** The entry's record, items and reading as they are now (each replaced, never changed, when they change). */
export function viewOf(entry: ConversationEntry): ConversationView {
  return { record: entry.record, items: entry.items, reading: entry.reading };
}

/** The engine's conversations, loaded from the state directory on first sight. */
export class ConversationTable {
  readonly #entries = new Map<string, ConversationEntry>();

  constructor(
    readonly state: StateDir,
    private readonly watch?: RecordWatch,
    /** Where records are read and latched: the state directory itself by default. */
    readonly store: ConversationStore = fsStore(state),
  ) {}

  /** Whether `key` was seen before in this process. */
  has(key: string): boolean {
    return this.#entries.has(key);
  }

  /** The entry for `key` as this process holds it, without reading the store; undefined when never seen. */
  peek(key: string): ConversationEntry | undefined {
    return this.#entries.get(key);
  }

  /** Lets go of an entry this process made and does not keep (a side call's: core/request-class.ts). */
  forget(key: string): void {
    this.#entries.delete(key);
  }

  /** The entry for `key`, with its record fresh from disk. */
  async get(key: string): Promise<ConversationEntry> {
    let entry = this.#entries.get(key);
    if (entry === undefined) {
      entry = {
        key,
        record: undefined,
        items: NO_ITEMS,
        kind: undefined,
        reading: undefined,
        latching: Promise.resolve(),
        fileStamp: '',
        refaulted: new Set(),
      };
      this.#entries.set(key, entry);
    }
    await this.refresh(entry);
    return entry;
  }

  /** Re-reads the record when its file changed since the last read. */
  async refresh(entry: ConversationEntry): Promise<void> {
    if (entry.readingWrite !== undefined) await entry.readingWrite;
    // Records change only by a latch's rename into conversations/, which the watch reports: while
    // it vouches for this one, the record in hand is the one on disk; the reading another process
    // on the directory took is read on its own.
    if (this.watch?.take(entry.key) === true) {
      takeReading(entry, await this.store.readReading?.(entry.key).catch(() => undefined));
      return;
    }
    const read = await this.store.readIfChanged(entry.key, entry.fileStamp);
    takeReading(entry, read.reading);
    if (read.changed !== undefined) this.adopt(entry, read.changed.record, read.changed.stamp);
  }

  /**
   * Keeps a reading in the store, for the other processes on it (a failure only leaves them on the older one);
   * returns the write, which never rejects, or undefined when the store keeps no readings.
   */
  shareReading(entry: ConversationEntry): Promise<void> | undefined {
    const { noteReading } = this.store;
    if (noteReading === undefined || entry.reading === undefined) return undefined;
    entry.readingWrite = noteReading(entry.key, entry.reading).catch(() => undefined);
    return entry.readingWrite;
  }

  /** Takes a record as the entry's own (after a latch, or a read). */
  adopt(entry: ConversationEntry, record: ConversationRecord | undefined, stamp?: string): void {
    // Epochs only latch forwards: never step back to a record with fewer epochs.
    if (record !== undefined && (entry.record === undefined || record.epochs.length >= entry.record.epochs.length)) {
      // The same epochs read back (the first read after this process's own latch) keep the same
      // frozen list: the rewrite's memo and stub tokens are kept per list and per block.
      const same = entry.record !== undefined && JSON.stringify(record.epochs) === JSON.stringify(entry.record.epochs);
      entry.record = record;
      if (!same) entry.items = frozenItemsOf(record);
      entry.kind = record.epochs.length === 0 ? undefined : kindOfConversation(record.epochs).tag;
    }
    if (stamp !== undefined) entry.fileStamp = stamp;
  }

  /** Stops the watch, if any: from then on each request `stat`s its record. */
  close(): void {
    this.watch?.close();
  }

  /** All entries (for status and tests). */
  entries(): IterableIterator<ConversationEntry> {
    return this.#entries.values();
  }
}

/** The store's reading is the conversation's latest, whichever process took it; the one in hand is kept when it is the same. */
function takeReading(entry: ConversationEntry, reading: FullnessReading | undefined): void {
  const now = entry.reading;
  if (reading === undefined) return;
  const same =
    now !== undefined &&
    now.contextTokens === reading.contextTokens &&
    now.window === reading.window &&
    now.epochsApplied === reading.epochsApplied &&
    now.requestBytes === reading.requestBytes;
  if (!same) entry.reading = reading;
}
