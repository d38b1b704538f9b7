/**
 * The state directory as a store: each call is the existing src/state function. Owner `''` is the
 * state root exactly as always; any other owner is `<root>/owners/<ownerId>/`, a complete state
 * directory of its own (0700).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { ConversationRecord } from '../core/epoch-types.js';
import { latchEpoch, type LatchDecision } from '../state/latch-epoch.js';
import { conversationPath, layoutPaths, type StateDir } from '../state/layout.js';
import { parseOriginalName } from '../state/kind-original.js';
import { locateOriginal, originalsFolderOf, sizeOfOriginal } from '../state/originals-folder.js';
import { noteBringBacks } from '../state/note-bring-backs.js';
import { openStateDir } from '../state/open-state-dir.js';
import { existingOwnerState } from '../state/owner-state.js';
import { hasErrnoCode } from '../state/state-error.js';
import { listConversations, readConversation } from '../state/read-conversation.js';
import { checkOwnerId } from './owner-id.js';
import {
  checkOriginalKind,
  checkShaPrefix,
  originalKey,
  type ConversationStore,
  type OriginalDigest,
  type OriginalExt,
  type OriginalId,
  type OriginalKind,
  type RecordRead,
} from './store-types.js';
import { sha256Hex } from '../state/sha256-hex.js';
import { openReadingsDir, readReading, writeReading } from '../state/reading-file.js';
import type { FullnessReading } from '../core/index.js';

/** The folder below a state root that holds the other owners' state directories. */
export const OWNERS_DIR_NAME = 'owners';

export class FsStore implements ConversationStore {
  readonly kind = 'fs';
  #readingsOpened: Promise<void> | undefined;

  /** Keeps each conversation's last reading for the other processes on the directory: a proxy's store only (`withSharedReadings`). */
  readonly noteReading?: (key: string, reading: FullnessReading) => Promise<void>;
  /** The conversation's last reading, whichever process on the directory took it: a proxy's store only. */
  readonly readReading?: (key: string) => Promise<FullnessReading | undefined>;

  constructor(
    readonly state: StateDir,
    readonly owner = '',
    /** The root of owner `''`, under which the other owners live. */
    private readonly baseRoot = state.root,
    /** Whether readings are shared through `readings/` (state/reading-file.ts); a replay's or a command's engine needs none. */
    readonly sharesReadings = false,
  ) {
    if (!sharesReadings) return;
    this.readReading = (key) => readReading(this.state, key);
    this.noteReading = (key, reading) => this.#writeReading(key, reading);
  }

  /** This store, sharing each conversation's reading with the other processes on the directory (what a proxy runs on). */
  withSharedReadings(): FsStore {
    return this.sharesReadings ? this : new FsStore(this.state, this.owner, this.baseRoot, true);
  }

  get stubDirs(): { elidedDir: string; spansDir: string } {
    return { elidedDir: this.state.elidedDir, spansDir: this.state.spansDir };
  }

  describe(): string {
    return this.state.root;
  }

  readRecord(key: string): Promise<ConversationRecord | undefined> {
    return readConversation(this.state, key);
  }

  async readIfChanged(key: string, stamp: string): Promise<RecordRead> {
    const [now, reading] = await Promise.all([statStamp(conversationPath(this.state, key)), this.readReading?.(key)]);
    const shared = reading === undefined ? {} : { reading };
    if (now === stamp) return shared;
    return { changed: { stamp: now, record: await readConversation(this.state, key) }, ...shared };
  }

  async #writeReading(key: string, reading: FullnessReading): Promise<void> {
    this.#readingsOpened ??= openReadingsDir(this.state).catch((error: unknown) => {
      this.#readingsOpened = undefined;
      throw error;
    });
    await this.#readingsOpened;
    await writeReading(this.state, key, reading);
  }

  listRecords(): Promise<ConversationRecord[]> {
    return listConversations(this.state);
  }

  latch(key: string, decide: LatchDecision): Promise<ConversationRecord | undefined> {
    return latchEpoch(this.state, key, decide);
  }

  noteBringBacks(key: string, shas: readonly string[]): Promise<ConversationRecord | undefined> {
    return noteBringBacks(this.state, key, shas);
  }

  async originalSize(kind: OriginalKind, sha256: string, ext: OriginalExt): Promise<number | undefined> {
    // A regular file in its kind's folder (a symlink does not count); a sealed block's in sealed/.
    return sizeOfOriginal(this.state, checkOriginalKind(kind), sha256, ext);
  }

  async originalSizes(ids: readonly OriginalId[]): Promise<Map<string, number>> {
    const sizes = new Map<string, number>();
    await Promise.all(
      ids.map(async (id) => {
        const size = await this.originalSize(id.kind, id.sha256, id.ext).catch(() => undefined);
        if (size !== undefined) sizes.set(originalKey(id), size);
      }),
    );
    return sizes;
  }

  async originalDigests(ids: readonly OriginalId[]): Promise<Map<string, OriginalDigest>> {
    const digests = new Map<string, OriginalDigest>();
    await Promise.all(
      ids.map(async (id) => {
        const bytes = await this.readOriginal(id.kind, id.sha256, id.ext).catch(() => undefined);
        if (bytes !== undefined) digests.set(originalKey(id), { size: bytes.byteLength, sha256: sha256Hex(bytes) });
      }),
    );
    return digests;
  }

  async readOriginal(kind: OriginalKind, sha256: string, ext: OriginalExt): Promise<Uint8Array | undefined> {
    const found = await locateOriginal(this.state, checkOriginalKind(kind), sha256, ext);
    return found === undefined ? undefined : fs.readFile(found.path);
  }

  async findOriginals(kind: OriginalKind, ext: OriginalExt, prefix: string): Promise<string[]> {
    checkShaPrefix(prefix);
    const folder = originalsFolderOf(this.state, checkOriginalKind(kind)).dir;
    const names = await fs.readdir(folder).catch((error: unknown) => {
      if (hasErrnoCode(error, 'ENOENT')) return [];
      throw error;
    });
    const found = names.flatMap((name) => {
      const sha = parseOriginalName(name, [ext])?.sha256;
      return sha?.startsWith(prefix) === true ? [sha] : [];
    });
    return found.sort();
  }

  async existingOwner(owner: string): Promise<ConversationStore | undefined> {
    if (checkOwnerId(owner) === this.owner) return this;
    const state = await existingOwnerState(layoutPaths(this.baseRoot), owner);
    return state === undefined ? undefined : new FsStore(state, owner, this.baseRoot, this.sharesReadings);
  }

  async forOwner(owner: string): Promise<ConversationStore> {
    if (checkOwnerId(owner) === '') return owner === this.owner ? this : new FsStore(await openStateDir(this.baseRoot), '', this.baseRoot, this.sharesReadings);
    const state = await openStateDir(path.join(this.baseRoot, OWNERS_DIR_NAME, owner));
    return new FsStore(state, owner, this.baseRoot, this.sharesReadings);
  }

  async close(): Promise<void> {}
}

/** A store on an opened state directory (owner `''`). */
export function fsStore(state: StateDir): FsStore {
  return new FsStore(state);
}

/** A record file's identity: inode, size and mtime; empty when there is none. */
export async function statStamp(file: string): Promise<string> {
  try {
    const s = await fs.stat(file);
    return `${s.ino}:${s.size}:${s.mtimeMs}`;
  } catch {
    return '';
  }
}
