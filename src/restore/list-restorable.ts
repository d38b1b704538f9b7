/** `spans`: what a state directory can give back, newest conversations first. */
import fs from 'node:fs/promises';
import { spanOf, blocksOf, itemsOfEpoch, registeredKinds, type Epoch, type OriginalFileExt } from '../core/index.js';
import type { ConversationRecord } from '../state/conversation-record.js';
import { originalPathOf } from '../state/originals-folder.js';
import { parseConversationName, spanPath, type StateDir } from '../state/layout.js';
import { readConversation } from '../state/read-conversation.js';
import { listSealedShas } from '../state/seal-block.js';
import { locateStoredFile } from '../state/stored-file.js';
import { blockOrigin, type BlockOrigin } from './block-origin.js';

/** One elided block of a conversation. */
export interface RestorableBlock extends BlockOrigin {
  readonly sha256: string;
  readonly bytes: number;
  readonly epoch: number;
  readonly ordinal: number;
  readonly toolUseId: string;
  /** Whether `ctxshed seal` sealed it: then `restore` refuses it. */
  readonly sealed: boolean;
  /** False when its text is in neither elided/ nor sealed/ (verify says more). */
  readonly present: boolean;
}

/**
 * One shed span of a conversation (shed mode). Spans are never sealed: `ctxshed seal` takes
 * elided blocks only (docs/shed.md, "Getting a span back").
 */
export interface RestorableSpan {
  readonly sha256: string;
  readonly bytes: number;
  readonly epoch: number;
  /** How many whole messages it holds, and their positions in the transcript (0-based, inclusive). */
  readonly messages: number;
  readonly first: number;
  readonly last: number;
  /** Goal pins its stub carries. */
  readonly pins: number;
  /** False when `spans/<sha256>.json` is not in the state directory (verify says more). */
  readonly present: boolean;
}

/**
 * One original of a registered epoch kind that gives its originals back (core/epochs/kind-info.ts
 * `restorable`): the file of the kind's `ext` an item of the conversation names.
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

/** Whether each text a record names is kept, and which blocks are sealed: what a listing says of them. */
export interface Presence {
  readonly span: (sha256: string) => Promise<boolean>;
  readonly block: (sha256: string) => Promise<boolean>;
  /** Whether a registered kind's original is kept: the kind's folder, the file's sha256 and extension. */
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
    span: (sha256) => isRegularFile(spanPath(state, sha256, 'json')),
    block: async (sha256) => (await locateStoredFile(state, sha256, 'txt').catch(() => undefined)) !== undefined,
    original: (folder, sha256, ext) => isRegularFile(originalPathOf(state, folder, sha256, ext)),
    sealed,
  };
  const conversations: RestorableConversation[] = [];
  for (const record of records) conversations.push(await restorableOf(record, presence));
  return sortedList(conversations, unreadable);
}

/** The blocks, spans and registered kinds' originals of one record, in epoch order. */
export async function restorableOf(record: ConversationRecord, presence: Presence): Promise<RestorableConversation> {
  const blocks: RestorableBlock[] = [];
  const spans: RestorableSpan[] = [];
  for (const epoch of record.epochs) {
    const span = spanOf(epoch);
    if (span !== undefined) {
      const { sha256, bytes, first, last, pins } = span;
      spans.push({ sha256, bytes, epoch: epoch.n, messages: last - first + 1, first, last, pins: pins.length, present: await presence.span(sha256) });
    }
    for (const block of blocksOf(epoch)) {
      const present = await presence.block(block.sha256);
      blocks.push({
        sha256: block.sha256,
        bytes: block.bytes,
        epoch: epoch.n,
        ordinal: block.ordinal,
        toolUseId: block.toolUseId,
        ...blockOrigin(block),
        sealed: presence.sealed.has(block.sha256),
        present,
      });
    }
  }
  const originals: RestorableOriginal[] = [];
  for (const epoch of record.epochs) {
    for (const file of restorableFilesOf(epoch)) {
      const present = await presence.original(file.folder, file.sha256, file.ext);
      originals.push({ sha256: file.sha256, kind: file.name, bytes: file.bytes ?? null, epoch: epoch.n, present });
    }
  }
  const lastLatchedAt = record.epochs.at(-1)?.latchedAt ?? record.createdAt;
  return { key: record.key, agentId: record.agentId, firstPrompt: record.firstPrompt, lastLatchedAt, blocks, spans, originals };
}

/** A file a registered kind's item names that `restore` gives back: of the kind's `restorable.ext`, in its folder. */
export interface RestorableFile {
  /** The kind's `restorable.name`. */
  readonly name: string;
  readonly folder: string;
  readonly sha256: string;
  readonly ext: OriginalFileExt;
  readonly bytes: number | undefined;
}

/** The files of `epoch`'s items, of each registered kind that gives its originals back, that restore gives back. */
export function restorableFilesOf(epoch: Epoch): RestorableFile[] {
  return registeredKinds().flatMap((kind) => {
    const { restorable } = kind;
    if (restorable === undefined) return [];
    return itemsOfEpoch(epoch, kind)
      .flatMap((item) => kind.filesOf(item).filter((f) => f.ext === restorable.ext))
      .map((f) => ({ name: restorable.name, folder: kind.originals, sha256: f.sha256, ext: f.ext, bytes: f.bytes }));
  });
}

/** The listing: newest conversation first, the unreadable records' names sorted. */
export function sortedList(conversations: RestorableConversation[], unreadable: string[]): RestorableList {
  conversations.sort((a, b) => b.lastLatchedAt.localeCompare(a.lastLatchedAt) || a.key.localeCompare(b.key));
  return { conversations, unreadable: unreadable.sort() };
}

async function isRegularFile(file: string): Promise<boolean> {
  // lstat: a symlink is not what ctxshed wrote (restore refuses to follow one).
  return (await fs.lstat(file).catch(() => undefined))?.isFile() ?? false;
}
