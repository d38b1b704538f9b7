/**
 * The store: where a proxy keeps what must outlive a request and be shared by every process that
 * serves the same person (conversation records and their epochs, the content-addressed originals
 * their stubs name, the bring-back counts). Two implementations: the state directory (fs-store.ts,
 * the embedded default) and Postgres (pg-store.ts, for gateway replicas). The wire log, previews
 * and proxy files stay local to each process: they are not part of the store.
 */
import type { ConversationRecord } from '../core/epoch-types.js';
import { KIND_NAME, kindOfOriginals } from '../core/index.js';
import type { FullnessReading } from '../core/fullness-reading.js';
import type { LatchDecision } from '../state/latch-epoch.js';
import { StateError } from '../state/state-error.js';

export type { LatchDecision } from '../state/latch-epoch.js';

/**
 * The kinds of content-addressed original, by the folder of the epoch kind that keeps them
 * (core/epochs/kind-info.ts `originals`): `elided` (a block's text or JSON), `span`, `thinking`,
 * or a registered kind's folder (`checkOriginalKind`).
 */
export type OriginalKind = string;
/** The extensions each kind has: elided `txt`/`json`, span `json`/`md`, thinking `json`. */
export type OriginalExt = 'txt' | 'json' | 'md';

/** Throws STATE_BAD_NAME unless `kind` is the folder of a kind in the registry (`KIND_NAME`, and registered). */
export function checkOriginalKind(kind: string): OriginalKind {
  if (KIND_NAME.test(kind) && kindOfOriginals(kind) !== undefined) return kind;
  throw new StateError('STATE_BAD_NAME', `no epoch kind keeps its originals in ${JSON.stringify(kind.slice(0, 80))}`);
}

/** Throws STATE_BAD_NAME unless `prefix` is lowercase hex of at most 64 digits (findOriginals' prefix). */
export function checkShaPrefix(prefix: string): string {
  if (/^[0-9a-f]{0,64}$/.test(prefix)) return prefix;
  throw new StateError('STATE_BAD_NAME', `a sha256 prefix is at most 64 lowercase hex digits, got ${JSON.stringify(prefix.slice(0, 80))}`);
}

/** One original, by kind, sha256 and extension; `originalKey` names it in a map. */
export interface OriginalId {
  readonly kind: OriginalKind;
  readonly sha256: string;
  readonly ext: OriginalExt;
}

/** What an original's bytes are: their length and their sha256 (hex). */
export interface OriginalDigest {
  readonly size: number;
  readonly sha256: string;
}

/** `kind:sha256.ext`: the key of an original in `originalSizes`'s answer. */
export function originalKey(id: OriginalId): string {
  return `${id.kind}:${id.sha256}.${id.ext}`;
}

/** A record read with the stamp that names its version (empty stamp: no record). */
export interface StampedRecord {
  readonly stamp: string;
  readonly record: ConversationRecord | undefined;
}

/** What `readIfChanged` answers: the record when its stamp moved, and the shared reading, if the store keeps one. */
export interface RecordRead {
  readonly changed?: StampedRecord;
  /** The conversation's last usage reading from any replica (a shared store only). */
  readonly reading?: FullnessReading;
}

/** Where stubs say the originals are: the same strings on every process sharing the store. */
export interface StubDirs {
  readonly elidedDir: string;
  readonly spansDir: string;
}

/** One owner's namespace of a store (docs/state.md, "The store"). */
export interface ConversationStore {
  readonly kind: 'fs' | 'postgres';
  /** The owner this namespace belongs to; `''` is the single-user default. */
  readonly owner: string;
  readonly stubDirs: StubDirs;
  /** Where the store is, for a person: a path, or a URL without its password. */
  describe(): string;
  /** The record of conversation `key`, or undefined; throws STATE_BAD_RECORD for one that does not check. */
  readRecord(key: string): Promise<ConversationRecord | undefined>;
  /** The record with its stamp unless its stamp is still `stamp`; with a store that keeps readings, the last reading too. */
  readIfChanged(key: string, stamp: string): Promise<RecordRead>;
  /**
   * Keeps the conversation's last usage reading (Postgres, and the state directory since issue 41),
   * so the process that takes its next request judges it on the same reading as any other would.
   */
  readonly noteReading?: (key: string, reading: FullnessReading) => Promise<void>;
  /**
   * The last reading alone, for a store whose records a watch vouches for (the state directory):
   * the engine asks it when the watch says the record has not changed.
   */
  readonly readReading?: (key: string) => Promise<FullnessReading | undefined>;
  /** Every record, oldest first. */
  listRecords(): Promise<ConversationRecord[]>;
  /**
   * Under the conversation's lock: re-reads the record, asks `decide`, and writes the plan's
   * originals durably before the record that names them (latch-epoch.ts's contract). Returns the
   * record now stored.
   */
  latch(key: string, decide: LatchDecision): Promise<ConversationRecord | undefined>;
  /** Adds one to each sha256's bring-back count in the record (note-bring-backs.ts's contract). */
  noteBringBacks(key: string, shas: readonly string[]): Promise<ConversationRecord | undefined>;
  /** The size of an original, or undefined when it is not kept (a sealed one counts as kept). */
  originalSize(kind: OriginalKind, sha256: string, ext: OriginalExt): Promise<number | undefined>;
  /**
   * The sizes of the originals of `ids` that are kept, by `originalKey` (one round trip in
   * Postgres); one that cannot be read counts as not kept.
   */
  originalSizes(ids: readonly OriginalId[]): Promise<Map<string, number>>;
  /**
   * The size and the sha256 of the bytes of each original of `ids` that is kept, by `originalKey`
   * (one round trip in Postgres, which hashes them itself): what an original must be before a stub
   * names it (rescue/original-check.ts). One that cannot be read counts as not kept.
   */
  originalDigests(ids: readonly OriginalId[]): Promise<Map<string, OriginalDigest>>;
  /** The bytes of an original, or undefined when it is not kept. */
  readOriginal(kind: OriginalKind, sha256: string, ext: OriginalExt): Promise<Uint8Array | undefined>;
  /**
   * The sha256s of the originals of `kind` and `ext` kept whose sha256 starts with `prefix`
   * (lowercase hex, at most 64 digits), sorted: what a restore handle can name.
   */
  findOriginals(kind: OriginalKind, ext: OriginalExt, prefix: string): Promise<string[]>;
  /** The namespace of another owner in the same store (made, for the state directory, when missing). */
  forOwner(owner: string): Promise<ConversationStore>;
  /** The namespace of `owner` if it has one, else undefined: a read (restore, spans) never creates an owner. */
  existingOwner(owner: string): Promise<ConversationStore | undefined>;
  /** Lets go of connections (a no-op for the state directory). */
  close(): Promise<void>;
}
