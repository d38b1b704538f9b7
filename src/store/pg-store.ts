/**
 * Postgres as a store (store-types.ts), for gateway replicas: every replica on one database sees
 * the same records and latches each epoch once. Owner `''` is the single-user default; every
 * row is keyed by its owner. Stubs name the restore tool and the handle (the originals are on no
 * disk the agent reads), the same string on every replica, so every replica sends the same bytes.
 */
import path from 'node:path';
import type { ConversationRecord } from '../core/epoch-types.js';
import type { LatchDecision } from '../state/latch-epoch.js';
import { countedIn } from '../state/note-bring-backs.js';
import { layoutPaths } from '../state/layout.js';
import { OWNERS_DIR_NAME } from './fs-store.js';
import { checkOwnerId } from './owner-id.js';
import { GATEWAY_STUB_DIR } from '../core/stub-paths.js';
import type { PgDb } from './pg-db.js';
import { latchIn, lockConversation } from './pg-latch.js';
import { listRecordsIn, readIfChangedIn, readRecordIn, writeReadingIn, writeRecordIn } from './pg-records.js';
import type { FullnessReading } from '../core/fullness-reading.js';
import {
  checkShaPrefix,
  originalKey,
  type ConversationStore,
  type OriginalDigest,
  type OriginalExt,
  type OriginalId,
  type OriginalKind,
  type RecordRead,
  type StubDirs,
} from './store-types.js';

export class PgStore implements ConversationStore {
  readonly kind = 'postgres';
  readonly stubDirs: StubDirs;

  /**
   * `stubRoot`: a directory whose layout holds the originals on the agent's disk (a test's state
   * directory), for stubs to name. Without one, the originals are on no disk the agent can read,
   * so the stubs name the restore tool and the handle (issue 41: they named
   * `/ctxshed-store/elided/<sha>.txt`, a path on no machine), the same string on every replica.
   */
  constructor(
    readonly db: PgDb,
    readonly owner = '',
    private readonly stubRoot?: string,
  ) {
    this.stubDirs = stubRoot === undefined ? { elidedDir: GATEWAY_STUB_DIR, spansDir: GATEWAY_STUB_DIR } : stubDirsUnder(stubRoot, owner);
  }

  describe(): string {
    return this.db.shown;
  }

  readRecord(key: string): Promise<ConversationRecord | undefined> {
    return this.db.withClient((c) => readRecordIn(c, this.owner, key));
  }

  readIfChanged(key: string, stamp: string): Promise<RecordRead> {
    return this.db.withClient((c) => readIfChangedIn(c, this.owner, key, stamp));
  }

  readonly noteReading = (key: string, reading: FullnessReading): Promise<void> => this.db.withClient((c) => writeReadingIn(c, this.owner, key, reading));

  listRecords(): Promise<ConversationRecord[]> {
    return this.db.withClient((c) => listRecordsIn(c, this.owner));
  }

  latch(key: string, decide: LatchDecision): Promise<ConversationRecord | undefined> {
    return this.db.transaction((c) => latchIn(c, this.owner, key, decide));
  }

  noteBringBacks(key: string, shas: readonly string[]): Promise<ConversationRecord | undefined> {
    return this.db.transaction(async (c) => {
      await lockConversation(c, this.owner, key);
      const current = await readRecordIn(c, this.owner, key);
      const counted = countedIn(current, key, shas);
      if (counted === undefined) return current;
      await writeRecordIn(c, this.owner, key, counted.next, counted.bytes);
      return counted.next;
    });
  }

  async originalSize(kind: OriginalKind, sha256: string, ext: OriginalExt): Promise<number | undefined> {
    const result = await this.db.withClient((c) =>
      c.query<{ size: number }>('SELECT octet_length(bytes) AS size FROM ctxshed_originals WHERE owner = $1 AND kind = $2 AND sha256 = $3 AND ext = $4', [
        this.owner,
        kind,
        sha256,
        ext,
      ]),
    );
    const size = result.rows[0]?.size;
    return size === undefined ? undefined : Number(size);
  }

  async originalSizes(ids: readonly OriginalId[]): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const result = await this.db.withClient((c) =>
      c.query<{ id: string; size: number }>(
        `SELECT kind || ':' || sha256 || '.' || ext AS id, octet_length(bytes) AS size FROM ctxshed_originals
         WHERE owner = $1 AND kind || ':' || sha256 || '.' || ext = ANY($2::text[])`,
        [this.owner, ids.map(originalKey)],
      ),
    );
    return new Map(result.rows.map((r) => [r.id, Number(r.size)]));
  }

  async originalDigests(ids: readonly OriginalId[]): Promise<Map<string, OriginalDigest>> {
    if (ids.length === 0) return new Map();
    const result = await this.db.withClient((c) =>
      c.query<{ id: string; size: number; digest: string }>(
        `SELECT kind || ':' || sha256 || '.' || ext AS id, octet_length(bytes) AS size, encode(sha256(bytes), 'hex') AS digest
         FROM ctxshed_originals WHERE owner = $1 AND kind || ':' || sha256 || '.' || ext = ANY($2::text[])`,
        [this.owner, ids.map(originalKey)],
      ),
    );
    return new Map(result.rows.map((r) => [r.id, { size: Number(r.size), sha256: r.digest }]));
  }

  async readOriginal(kind: OriginalKind, sha256: string, ext: OriginalExt): Promise<Uint8Array | undefined> {
    const result = await this.db.withClient((c) =>
      c.query<{ bytes: Buffer }>('SELECT bytes FROM ctxshed_originals WHERE owner = $1 AND kind = $2 AND sha256 = $3 AND ext = $4', [
        this.owner,
        kind,
        sha256,
        ext,
      ]),
    );
    return result.rows[0]?.bytes;
  }

  async findOriginals(kind: OriginalKind, ext: OriginalExt, prefix: string): Promise<string[]> {
    const result = await this.db.withClient((c) =>
      c.query<{ sha256: string }>(
        'SELECT sha256 FROM ctxshed_originals WHERE owner = $1 AND kind = $2 AND ext = $3 AND left(sha256, length($4)) = $4 ORDER BY sha256 COLLATE "C"',
        [this.owner, kind, ext, checkShaPrefix(prefix)],
      ),
    );
    return result.rows.map((r) => r.sha256);
  }

  /** An owner's rows are only ever written by a latch: a namespace costs nothing, and reading it creates nothing. */
  existingOwner(owner: string): Promise<ConversationStore | undefined> {
    return this.forOwner(owner);
  }

  async forOwner(owner: string): Promise<ConversationStore> {
    return checkOwnerId(owner) === this.owner ? this : new PgStore(this.db, owner, this.stubRoot);
  }

  /** Ends the pool: every namespace of this database shares it. */
  close(): Promise<void> {
    return this.db.close();
  }
}

/** The folders of `owner`'s originals under a state directory at `root`, as the directory store lays them out. */
function stubDirsUnder(root: string, owner: string): StubDirs {
  const layout = layoutPaths(owner === '' ? root : path.posix.join(root, OWNERS_DIR_NAME, owner));
  return { elidedDir: layout.elidedDir, spansDir: layout.spansDir };
}
