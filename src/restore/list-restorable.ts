/** `spans`: what a state directory can give back, newest conversations first. */
import fs from 'node:fs/promises';
import {
  epochKindInfos,
  itemsOfEpoch,
  type Epoch,
  type EpochKindInfo,
  type ListedUnder,
  type OriginalFileExt,
  type RestorableBlock,
  type RestorableSpan,
} from '../core/index.js';
import type { ConversationRecord } from '../state/conversation-record.js';
import { parseConversationName, type StateDir } from '../state/layout.js';
import { locateOriginal } from '../state/originals-folder.js';
import { readConversation } from '../state/read-conversation.js';
import { listSealedShas } from '../state/seal-block.js';

export type { RestorableBlock, RestorableSpan } from '../core/index.js';

/**
 * One original of a kind that gives its originals back (core/epochs/kind-info.ts `restorable`) and
 * lists them in no list of its own (`restorable.listed`): the file of the kind's `ext` an item of
 * the conversation names.
 */
export interface RestorableOriginal {
  readonly sha256: string;
  /** The kind's name as the tools print it (`restorable.name`). */
  readonly kind: string;
  /** Its size as the item says it; null when the item says none. */
  readonly bytes: number | null;
  readonly epoch: number;
  /** False when the file is not kept (verify says more). */
  readonly present: boolean;
}

/** A conversation with epochs, and its blocks, spans and registered kinds' originals, each in epoch order. */
export interface RestorableConversation {
  readonly key: string;
  readonly agentId: string | null;
  readonly firstPrompt: string;
  /** When its newest epoch latched: the order of the list. */
  readonly lastLatchedAt: string;
  readonly blocks: readonly RestorableBlock[];
  readonly spans: readonly RestorableSpan[];
  /** Empty in a listing from a gateway that predates registered kinds (restore-wire.ts `decodeList`). */
  readonly originals: readonly RestorableOriginal[];
}

/** Everything restorable, and the record files that did not read. */
export interface RestorableList {
  readonly conversations: readonly RestorableConversation[];
  readonly unreadable: readonly string[];
}

/** Whether each file a record names is kept, and which are sealed: what a listing says of them. */
export interface Presence {
  /** Whether a kind's original is kept: the kind's folder (`originals`), the file's sha256 and extension. */
  readonly original: (folder: string, sha256: string, ext: OriginalFileExt) => Promise<boolean>;
  readonly sealed: ReadonlySet<string>;
}

/** Lists every elided block, shed span and registered kind's original the records name, newest conversation first. Read-only. */
export async function listRestorable(state: StateDir): Promise<RestorableList> {
  const sealed = await listSealedShas(state);
  const unreadable: string[] = [];
  const records: ConversationRecord[] = [];
  for (const name of await fs.readdir(state.conversationsDir).catch(() => [])) {
    const key = parseConversationName(name);
    if (key === undefined) continue;
    // One broken record must not hide the others; verify says what is wrong with it.
    const record = await readConversation(state, key).catch(() => {
      unreadable.push(name);
      return undefined;
    });
    if (record !== undefined && record.epochs.length > 0) records.push(record);
  }
  const presence: Presence = {
    // A regular file, in its kind's folder or, sealed, in sealed/ (a symlink is not what ctxshed wrote).
    original: async (folder, sha256, ext) => (await locateOriginal(state, folder, sha256, ext).catch(() => undefined)) !== undefined,
    sealed,
  };
  const conversations: RestorableConversation[] = [];
  for (const record of records) conversations.push(await restorableOf(record, presence));
  return sortedList(conversations, unreadable);
}

/**
 * What one record gives back, in epoch order: each kind's items that `restore` gives back, in the
 * list the kind names (`restorable.listed`: the tool results' `blocks`, the spans' `spans`), or as
 * `originals`, one per file of the kind's `ext`.
 */
export async function restorableOf(record: ConversationRecord, presence: Presence): Promise<RestorableConversation> {
  const lists: Record<ListedUnder, object[]> = { blocks: [], spans: [], originals: [] };
  for (const epoch of record.epochs) {
    for (const file of restorableFilesOf(epoch)) {
      const { kind, item, sha256, bytes } = file;
      const listed = kind.restorable?.listed;
      const at = { epoch: epoch.n, present: await presence.original(kind.originals, sha256, file.ext), sealed: presence.sealed.has(sha256) };
      if (listed !== undefined) lists[listed.under].push(listed.entryOf(item, at));
      else lists.originals.push({ sha256, kind: file.name, bytes: bytes ?? null, epoch: epoch.n, present: at.present } satisfies RestorableOriginal);
    }
  }
  const lastLatchedAt = record.epochs.at(-1)?.latchedAt ?? record.createdAt;
  return {
    key: record.key,
    agentId: record.agentId,
    firstPrompt: record.firstPrompt,
    lastLatchedAt,
    blocks: lists.blocks as RestorableBlock[],
    spans: lists.spans as RestorableSpan[],
    originals: lists.originals as RestorableOriginal[],
  };
}

/** A file an item names that `restore` gives back: of its kind's `restorable.ext`, in its folder. */
export interface RestorableFile {
  readonly kind: EpochKindInfo;
  readonly item: unknown;
  /** The kind's `restorable.name`. */
  readonly name: string;
  readonly folder: string;
  readonly sha256: string;
  readonly ext: OriginalFileExt;
  readonly bytes: number | undefined;
}

/** The files of `epoch`'s items, of every kind that gives its originals back, that restore gives back, kind by kind. */
export function restorableFilesOf(epoch: Epoch): RestorableFile[] {
  return epochKindInfos().flatMap((kind) => {
    const { restorable } = kind;
    if (restorable === undefined) return [];
    return itemsOfEpoch(epoch, kind).flatMap((item) =>
      kind
        .filesOf(item)
        .filter((f) => f.ext === restorable.ext)
        .map((f) => ({ kind, item, name: restorable.name, folder: kind.originals, sha256: f.sha256, ext: f.ext, bytes: f.bytes })),
    );
  });
}

/** The listing: newest conversation first, the unreadable records' names sorted. */
export function sortedList(conversations: RestorableConversation[], unreadable: string[]): RestorableList {
  conversations.sort((a, b) => b.lastLatchedAt.localeCompare(a.lastLatchedAt) || a.key.localeCompare(b.key));
  return { conversations, unreadable: unreadable.sort() };
}
