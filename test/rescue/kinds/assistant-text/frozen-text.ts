/**
 * The pure half of the test kind `assistant_text` (docs/adding-a-kind.md): an old assistant `text`
 * block, in a message with no thinking block, frozen whole: its exact bytes go to
 * `<state>/assistant_text/<sha256>.json`, and a text block naming the handle stands in its place.
 * Its item, its stub, its candidates, its judge and its inflate; the record is kind-record.ts.
 */
import { createHash } from 'node:crypto';
import type { ItemOptions, JudgedItems } from '../../../../src/core/epochs/epoch-applier.js';
import { judgeItems, type Taken } from '../../../../src/core/epochs/judge-items.js';
import type { InflateSite } from '../../../../src/core/epochs/kind-record.js';
import type { Splice } from '../../../../src/core/splices.js';
import type { TranscriptIndex } from '../../../../src/core/transcript-index-types.js';

export const TAG = 'assistant_text';
/** Messages at the end of the transcript the kind never touches. */
export const KEEP_RECENT = 2;
/** The smallest text block it freezes, in bytes of the block object. */
export const MIN_BYTES = 24;

/** One frozen text block: where it was, and its exact bytes' sha256 and length. */
export interface FrozenText {
  readonly messageIndex: number;
  readonly blockIndex: number;
  readonly sha256: string;
  readonly bytes: number;
}

/** A candidate, with the bytes that would be kept. */
export interface TextCandidate extends FrozenText {
  readonly original: Uint8Array;
}

const ENCODER = new TextEncoder();
const sha256Of = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** The stub block's exact bytes for an item: made from the item alone, so inflate can recognize it. */
export function stubOf(item: FrozenText): Uint8Array {
  const text = `[ctxshed: an earlier assistant text of ${item.bytes} bytes, frozen; ctxshed restore ${item.sha256}]`;
  return ENCODER.encode(JSON.stringify({ type: 'text', text }));
}

/** The assistant text blocks the kind may freeze: old, big enough, in a message with no thinking. */
export function candidatesOf(body: Uint8Array, index: TranscriptIndex, frozen: readonly FrozenText[]): TextCandidate[] {
  const taken = new Set(frozen.map((f) => `${f.messageIndex}/${f.blockIndex}`));
  const last = index.messages.length - KEEP_RECENT;
  return index.messages.slice(0, Math.max(0, last)).flatMap((message, messageIndex) => {
    if (message.role !== 'assistant' || message.blocks.some((b) => b.type === 'thinking' || b.type === 'redacted_thinking')) return [];
    return message.blocks.flatMap((block, blockIndex) => {
      if (block.type !== 'text' || block.end - block.start < MIN_BYTES || taken.has(`${messageIndex}/${blockIndex}`)) return [];
      const original = body.slice(block.start, block.end);
      return [{ messageIndex, blockIndex, sha256: sha256Of(original), bytes: original.length, original }];
    });
  });
}

/** Where item `item` stands in `index`, when the block there is a text block. */
function blockAt(index: TranscriptIndex, item: FrozenText): { start: number; end: number } | undefined {
  const block = index.messages[item.messageIndex]?.blocks[item.blockIndex];
  return block?.type === 'text' ? block : undefined;
}

/** Why a frozen text block is left in a request: its block gone or changed, or its file missing. */
export type TextSkipReason = 'missing_block' | 'hash_mismatch' | 'file_missing';

/** A frozen text block left in a request: its place (`placeOf`) and why. */
export interface SkippedText {
  readonly ordinal: number;
  readonly reason: TextSkipReason;
}

/** An item's number (the decision's `ordinal`, a skip's): unique per place. */
export const placeOf = (t: FrozenText): number => t.messageIndex * 10_000 + t.blockIndex;

/** The frozen items judged against a client body: each block still holding its frozen bytes, with its file, becomes its stub. */
export function judgeTexts(
  body: Uint8Array,
  index: TranscriptIndex,
  items: readonly FrozenText[],
  options: ItemOptions<FrozenText>,
): JudgedItems<Splice, SkippedText, 'stubbed' | TextSkipReason> {
  const verdictOf = (item: FrozenText): 'stubbed' | TextSkipReason => {
    const block = blockAt(index, item);
    if (block === undefined) return 'missing_block';
    if (block.end - block.start !== item.bytes || options.sha256(body.subarray(block.start, block.end)) !== item.sha256) return 'hash_mismatch';
    return options.isAvailable?.(item) === false ? 'file_missing' : 'stubbed';
  };
  const take = (item: FrozenText): Taken<Splice> => {
    const block = blockAt(index, item)!;
    const splice = { start: block.start, end: block.end, bytes: stubOf(item) };
    return { applied: splice, splice, bytes: item.bytes, messages: 0 };
  };
  return judgeItems(items, 'stubbed', verdictOf, take, (item, reason) => ({ ordinal: placeOf(item), reason }));
}

/** The inflate hook: where an item's stub stands, byte for byte, at the item's place; nothing else. */
export function inflateSites(body: Uint8Array, index: TranscriptIndex, items: readonly FrozenText[]): InflateSite[] {
  const sites = new Map<number, InflateSite>();
  for (const item of items) {
    const block = blockAt(index, item);
    if (block === undefined || sites.has(block.start)) continue;
    const stub = stubOf(item);
    const there = body.subarray(block.start, block.end);
    if (there.length === stub.length && there.every((b, i) => b === stub[i]))
      sites.set(block.start, { start: block.start, end: block.end, files: [{ sha256: item.sha256, ext: 'json' }] });
  }
  return [...sites.values()];
}

/** The record check of one item. */
export function checkText(item: unknown, at: string): string[] {
  if (typeof item !== 'object' || item === null) return [`${at} is not an object`];
  const t = item as Record<string, unknown>;
  const count = (v: unknown): boolean => Number.isSafeInteger(v) && (v as number) >= 0;
  const problems: string[] = [];
  if (!count(t['messageIndex'])) problems.push(`${at}: messageIndex is not a non-negative integer`);
  if (!count(t['blockIndex'])) problems.push(`${at}: blockIndex is not a non-negative integer`);
  if (!count(t['bytes'])) problems.push(`${at}: bytes is not a non-negative integer`);
  if (typeof t['sha256'] !== 'string' || !/^[0-9a-f]{64}$/.test(t['sha256'])) problems.push(`${at}: sha256 is not 64 lowercase hex digits`);
  return problems;
}
