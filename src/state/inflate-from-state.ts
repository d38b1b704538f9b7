/**
 * Inflate at the edge: first the answers ctxshed sent as a pointer to an earlier copy of their text
 * (inflate-repeats.ts); then find every kind's stubs, keep those the conversation records say ctxshed
 * put there, read each one's files, check their hashes, and splice the originals back in one plan.
 * A span's stub message and a tool result's stub never overlap (a span's bytes are the client's
 * own, so they hold no stub); the plan refuses any that do.
 *
 * Text that only looks like a stub is the client's own (an agent that read a captured request has
 * stub text in its transcript), and the proxy rightly left it alone: a tool result's stub is put
 * back only when some epoch froze that tool call's result with that sha256; every other kind's
 * only where its `inflate` hook, given its records' items, says it stands (a span's stub where some
 * epoch shed that span, once: a later copy of the same stub message is the client's).
 */
import fs from 'node:fs/promises';
import {
  itemsOfEpoch,
  applyInflate,
  indexAnyApi,
  type ConversationRecord,
  type EpochKindInfo,
  epochKindInfos,
  type IndexOutcome,
  type InflateSite,
  type TranscriptIndex,
} from '../core/index.js';
import { locateOriginal, originalPathOf } from './originals-folder.js';
import { inflateThinking } from './inflate-thinking.js';
import { inflateRepeats } from './inflate-repeats.js';
import type { StateDir } from './layout.js';
import { listConversations } from './read-conversation.js';
import { sha256Hex } from './sha256-hex.js';
import { locateStoredFile } from './stored-file.js';

/** Why a body could not be inflated. */
export class InflateError extends Error {
  override readonly name = 'InflateError';
}

/**
 * The original request bytes of a rewritten body (Messages, Responses or chat: the first API that
 * reads it); a body without stubs comes back unchanged.
 */
export async function inflateFromState(
  state: StateDir,
  body: Uint8Array,
): Promise<{ body: Uint8Array; stubs: number; spans: number; thinking: number; items?: number; repeats?: number }> {
  // A body no API reads is refused before the state is read (a missing state directory is no excuse).
  const { index } = indexOf(body);
  const records = await listConversations(state);
  // First the answers sent as pointers to an earlier copy (inflate-repeats.ts): they lie outside every stub.
  const repeated = await inflateRepeats(state, body, index, records, (sha256, ext) => readVerified(state, sha256, ext));
  return { ...(await inflateStubs(state, repeated.body, records)), ...(repeated.repeats === 0 ? {} : { repeats: repeated.repeats }) };
}

/** Every kind's stubs put back, each by its kind's `inflate` hook and one reader, then the removed thinking blocks. */
async function inflateStubs(
  state: StateDir,
  body: Uint8Array,
  records: readonly ConversationRecord[],
): Promise<{ body: Uint8Array; stubs: number; spans: number; thinking: number; items?: number }> {
  const { index } = indexOf(body);
  const sites = kindSites(records, body, index);
  const restored = await Promise.all(sites.map(async ({ kind, site }) => ({ found: site, content: await readSite(state, kind, site) })));
  const inflated = applyInflate(body, restored);
  // Last: the removed thinking blocks' positions are those of the client's body, spans and all.
  const withThinking = await inflateThinking(state, inflated);
  const counted = (counts: EpochKindInfo['counts']): number => sites.filter((s) => s.kind.counts === counts).length;
  const items = counted('items');
  return { body: withThinking.body, stubs: counted('blocks'), spans: counted('spans'), thinking: withThinking.thinking, ...(items === 0 ? {} : { items }) };
}

/** Each kind's stubs that its records' items say ctxshed put there (the kind's `inflate` hook). */
function kindSites(records: readonly ConversationRecord[], body: Uint8Array, index: TranscriptIndex): { kind: EpochKindInfo; site: InflateSite }[] {
  return epochKindInfos().flatMap((kind) => {
    if (kind.inflate === undefined) return [];
    const items = records.flatMap((r) => r.epochs.flatMap((e) => itemsOfEpoch(e, kind)));
    return items.length === 0 ? [] : kind.inflate(body, index, items).map((site) => ({ kind, site }));
  });
}

/** The bytes a site is put back as: its files read from the kind's folder, each checked, then made into one. */
async function readSite(state: StateDir, kind: EpochKindInfo, site: InflateSite): Promise<Uint8Array> {
  const what = `${kind.originals} file`;
  const files = await Promise.all(
    site.files.map(async ({ sha256, ext, bytes: size }) => {
      // An elided file `ctxshed seal` moved is read from sealed/: not for the model, still the original's bytes.
      const found = await locateOriginal(state, kind.originals, sha256, ext).catch(() => undefined);
      const bytes = await readChecked(found?.path ?? originalPathOf(state, kind.originals, sha256, ext), sha256, what);
      if (size !== undefined && bytes.length !== size)
        throw new InflateError(`${what} ${sha256}.${ext} holds ${bytes.length} bytes, the ${kind.says ?? 'item'} says ${size}`);
      return bytes;
    }),
  );
  return site.make?.(files) ?? files[0] ?? new Uint8Array(0);
}

function indexOf(body: Uint8Array): Extract<IndexOutcome, { kind: 'indexed' }> {
  const { outcome: indexed } = indexAnyApi(body);
  if (indexed.kind === 'failed') throw new InflateError(`not a Messages API body (${indexed.reason}: ${indexed.detail})`);
  return indexed;
}

async function readVerified(state: StateDir, sha256: string, ext: 'txt' | 'json'): Promise<Uint8Array> {
  // A sealed block's files are in sealed/: not for the model to read, still the original's bytes.
  const stored = await locateStoredFile(state, sha256, ext).catch(() => undefined);
  if (stored === undefined) throw new InflateError(`cannot read elided file ${sha256}.${ext}: in neither elided/ nor sealed/`);
  return readChecked(stored.path, sha256, 'elided file');
}

async function readChecked(file: string, sha256: string, what: string): Promise<Uint8Array> {
  let bytes: Uint8Array;
  try {
    bytes = await fs.readFile(file);
  } catch (error) {
    throw new InflateError(`cannot read ${what} ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  if (sha256Hex(bytes) !== sha256) throw new InflateError(`${what} ${file} does not match its sha256 name`);
  return bytes;
}
