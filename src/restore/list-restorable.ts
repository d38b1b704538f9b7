/** `spans`: what a state directory can give back, newest conversations first. */
import fs from 'node:fs/promises';
import type { ConversationRecord } from '../state/conversation-record.js';
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

/** A conversation with epochs, and its blocks and spans, each in epoch order. */
export interface RestorableConversation {
  readonly key: string;
  readonly agentId: string | null;
  readonly firstPrompt: string;
  /** When its newest epoch latched: the order of the list. */
  readonly lastLatchedAt: string;
  readonly blocks: readonly RestorableBlock[];
  readonly spans: readonly RestorableSpan[];
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
  readonly sealed: ReadonlySet<string>;
}

/** Lists every elided block and shed span the records name, newest conversation first. Read-only. */
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
    sealed,
  };
  const conversations: RestorableConversation[] = [];
  for (const record of records) conversations.push(await restorableOf(record, presence));
  return sortedList(conversations, unreadable);
}

/** The blocks and spans of one record, in epoch order. */
export async function restorableOf(record: ConversationRecord, presence: Presence): Promise<RestorableConversation> {
  const blocks: RestorableBlock[] = [];
  const spans: RestorableSpan[] = [];
  for (const epoch of record.epochs) {
    if (epoch.span !== undefined) {
      const { sha256, bytes, first, last, pins } = epoch.span;
      spans.push({ sha256, bytes, epoch: epoch.n, messages: last - first + 1, first, last, pins: pins.length, present: await presence.span(sha256) });
    }
    for (const block of epoch.blocks) {
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
  const lastLatchedAt = record.epochs.at(-1)?.latchedAt ?? record.createdAt;
  return { key: record.key, agentId: record.agentId, firstPrompt: record.firstPrompt, lastLatchedAt, blocks, spans };
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
