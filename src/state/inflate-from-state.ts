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
  blocksOf,
  itemsOfEpoch,
  applyInflate,
  findPartStubs,
  type FoundPartStub,
  indexAnyApi,
  isPart,
  restoredContent,
  TOOL_RESULTS,
  type ConversationRecord,
  type EpochKindInfo,
  epochKindInfos,
  type FoundStub,
  type IndexOutcome,
  type InflateSite,
  type TranscriptIndex,
} from '../core/index.js';
import { originalPathOf } from './originals-folder.js';
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

/** Every kind's stubs put back, then the removed thinking blocks. */
async function inflateStubs(
  state: StateDir,
  body: Uint8Array,
  records: readonly ConversationRecord[],
): Promise<{ body: Uint8Array; stubs: number; spans: number; thinking: number; items?: number }> {
  const { index } = indexOf(body);
  const frozen = frozenBlocks(records);
  const found = TOOL_RESULTS.findStubs(body, index).filter((f) => {
    const toolUseId = index.toolResults[f.ordinal]?.toolUseId;
    return toolUseId !== undefined && frozen.has(blockKey(toolUseId, f.stub.sha256));
  });
  // The deeper cut's parts, each where its record places it (core/epochs/inflate.ts).
  const parts = findPartStubs(
    body,
    index,
    records.flatMap((r) => r.epochs.flatMap((e) => blocksOf(e).filter(isPart))),
  );
  // Every kind whose stubs are one original's exact bytes (spans, a registered kind's): its `inflate` hook.
  const sites = kindSites(records, body, index);
  const restored = await Promise.all([
    ...found.map(async (f) => ({ found: f, content: await readOriginal(state, f) })),
    ...parts.map(async (f) => ({ found: f, content: await readPart(state, f) })),
    ...sites.map(async ({ kind, site }) => ({
      found: site,
      content: await readChecked(originalPathOf(state, kind.originals, site.sha256, site.ext), site.sha256, `${kind.tag} file`),
    })),
  ]);
  const inflated = applyInflate(body, restored);
  // Last: the removed thinking blocks' positions are those of the client's body, spans and all.
  const withThinking = await inflateThinking(state, inflated);
  const items = sites.filter((s) => s.kind.counts === 'items').length;
  return {
    body: withThinking.body,
    stubs: found.length + parts.length,
    spans: sites.filter((s) => s.kind.counts === 'spans').length,
    thinking: withThinking.thinking,
    ...(items === 0 ? {} : { items }),
  };
}

/** Each kind's stubs that its records' items say ctxshed put there (the kind's `inflate` hook). */
function kindSites(records: readonly ConversationRecord[], body: Uint8Array, index: TranscriptIndex): { kind: EpochKindInfo; site: InflateSite }[] {
  return epochKindInfos().flatMap((kind) => {
    if (kind.inflate === undefined) return [];
    const items = records.flatMap((r) => r.epochs.flatMap((e) => itemsOfEpoch(e, kind)));
    return items.length === 0 ? [] : kind.inflate(body, index, items).map((site) => ({ kind, site }));
  });
}

/** What the records say ctxshed replaced of the tool results: each by its call id and sha256. */
function frozenBlocks(records: readonly ConversationRecord[]): Set<string> {
  const blocks = new Set<string>();
  for (const epoch of records.flatMap((r) => r.epochs))
    for (const block of blocksOf(epoch)) if (!isPart(block)) blocks.add(blockKey(block.toolUseId, block.sha256));
  return blocks;
}

function blockKey(toolUseId: string, sha256: string): string {
  return `${sha256} ${toolUseId}`;
}

function indexOf(body: Uint8Array): Extract<IndexOutcome, { kind: 'indexed' }> {
  const { outcome: indexed } = indexAnyApi(body);
  if (indexed.kind === 'failed') throw new InflateError(`not a Messages API body (${indexed.reason}: ${indexed.detail})`);
  return indexed;
}

async function readOriginal(state: StateDir, found: FoundStub): Promise<Uint8Array> {
  const { stub } = found;
  const text = await readVerified(state, stub.sha256, 'txt');
  if (text.length !== stub.bytes) {
    throw new InflateError(`elided file ${stub.sha256}.txt holds ${text.length} bytes, the stub says ${stub.bytes}`);
  }
  const raw = stub.rawSha256 === undefined ? undefined : await readVerified(state, stub.rawSha256, 'json');
  return restoredContent(stub, text, raw);
}

async function readPart(state: StateDir, found: FoundPartStub): Promise<Uint8Array> {
  const { part } = found;
  const text = await readVerified(state, part.sha256, 'txt');
  if (text.length !== part.bytes) throw new InflateError(`elided file ${part.sha256}.txt holds ${text.length} bytes, the record says ${part.bytes}`);
  const raw = part.rawSha256 === undefined ? undefined : await readVerified(state, part.rawSha256, 'json');
  return restoredContent(part, text, raw);
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
