/**
 * Rescue mode's kind of epoch: frozen tool results. Each frozen block is found by its ordinal,
 * checked to be still the block the epoch froze, and its `content` value replaced by a stub
 * (docs/core.md, "The rewrite"). apply.ts runs the rest.
 */
import { isPart, type FrozenBlock, type FrozenPart } from '../../epoch-types.js';
import { encodeJsonString } from '../../json-string.js';
import type { BlockSkipReason } from '../../passthrough-reasons.js';
import { locatePart, partStubToken } from '../../part-value.js';
import { valueAtPath } from '../../json-paths.js';
import { renderStub } from '../../stub.js';
import type { ToolResultInfo, TranscriptIndex } from '../../transcript-index-types.js';
import { applyEpochs, type EpochOutcome } from '../apply.js';
import { checkOutput, checkRewrite, type StubbedBlock } from './check-tool-results.js';
import type { EpochApplier, ItemOptions, JudgedItems } from '../epoch-applier.js';
import { findStubs, type FoundStub } from '../inflate.js';
import { judgeItems, type Taken } from '../judge-items.js';
import { cachedStubs } from '../stub-cache.js';

/** A frozen block left alone in this request, and why (a part of the deeper cut says which part). */
export interface SkippedBlock {
  readonly ordinal: number;
  readonly reason: BlockSkipReason;
  readonly part?: FrozenBlock['part'];
}

/** What one frozen block came to in a request: stubbed, or left alone and why. */
export type BlockVerdict = 'stubbed' | BlockSkipReason;

/** What the rewrite needs from outside. */
export interface RewriteOptions extends ItemOptions<FrozenBlock> {
  /** Absolute path of `<state>/elided`, named in every stub. */
  readonly elidedDir: string;
}

/** The result of a rewrite. */
export type RewriteOutcome = EpochOutcome<SkippedBlock>;

/** The frozen blocks judged against one body. */
export type JudgedBlocks = JudgedItems<StubbedBlock, SkippedBlock, BlockVerdict>;

const ENCODER = new TextEncoder();

/** The stub for `block` as a JSON string token. */
const stubToken = cachedStubs((block: FrozenBlock, elidedDir: string) => encodeJsonString(ENCODER.encode(renderStub(block, elidedDir))));

/**
 * Judges every frozen block against the body, in the order of `frozen`. `reuse(i)`, when given,
 * may supply block i's verdict instead of checking its bytes (the incremental rewrite does, for
 * blocks in a prefix it already checked); it is consulted first.
 */
function judgeBlocks(
  body: Uint8Array,
  index: TranscriptIndex,
  frozen: readonly FrozenBlock[],
  options: RewriteOptions,
  reuse?: (i: number) => BlockVerdict | undefined,
): JudgedBlocks {
  return judgeItems(
    frozen,
    'stubbed',
    (block, i) =>
      reuse?.(i) ??
      (isPart(block) ? checkFrozenPart(body, index, block, options) : checkFrozenBlock(body, index.toolResults[block.ordinal], block, options)) ??
      'stubbed',
    (block) => {
      if (isPart(block)) return takePart(body, index, block, options.elidedDir);
      const { content } = index.toolResults[block.ordinal]!;
      const splice = { start: content.start, end: content.end, bytes: stubToken(block, options.elidedDir) };
      return { applied: { ordinal: block.ordinal, splice }, splice, bytes: block.bytes, messages: 0 };
    },
    (block, reason) => (isPart(block) ? { ordinal: block.ordinal, reason, part: block.part } : { ordinal: block.ordinal, reason }),
  );
}

/** A frozen part still holding the bytes its epoch froze, with its files: `undefined`; else why it stays. */
function checkFrozenPart(body: Uint8Array, index: TranscriptIndex, part: FrozenPart, options: RewriteOptions): BlockSkipReason | undefined {
  const at = locatePart(body, index, part, options.sha256);
  if (typeof at === 'string') return at;
  const block = index.messages[part.messageIndex]!.blocks[part.blockIndex]!;
  LOCATED.set(part, { start: block.start, end: block.end, value: at });
  return options.isAvailable !== undefined && !options.isAvailable(part) ? 'file_missing' : undefined;
}

/**
 * Where each part's string was last found, with its block's span. A part judged `stubbed` in the
 * same judging has just been found there; one whose verdict an incremental rewrite reused lies in
 * a prefix whose bytes are those of the request it was found in (and its splice there is the
 * memo's output's, not made again: incremental-rewrite.ts). Either way the scan is not repeated.
 */
const LOCATED = new WeakMap<FrozenPart, { readonly start: number; readonly end: number; readonly value: { start: number; end: number } }>();

const PART_TOKENS = new WeakMap<FrozenPart, { readonly dir: string; readonly bytes: Uint8Array }>();

/**
 * The stub token of a part, remembered per part as a tool result's is (stub-cache.ts): a part whose
 * value is JSON text is made from the body's bytes, the same wherever its sha256 matched.
 */
function partTokenOf(body: Uint8Array, value: { start: number; end: number }, part: FrozenPart, dir: string): Uint8Array {
  const known = PART_TOKENS.get(part);
  if (known !== undefined && known.dir === dir) return known.bytes;
  const bytes = partStubToken(body, value, part, dir);
  if (bytes === undefined) throw new Error(`part ${part.part} ${part.ordinal}: its JSON text does not hold the strings it froze`);
  PART_TOKENS.set(part, { dir, bytes });
  return bytes;
}

/** A part judged `stubbed` (its bytes checked, or those of a prefix already checked): its splice. */
function takePart(body: Uint8Array, index: TranscriptIndex, part: FrozenPart, elidedDir: string): Taken<StubbedBlock> {
  const block = index.messages[part.messageIndex]!.blocks[part.blockIndex]!;
  const known = LOCATED.get(part);
  const value = known !== undefined && known.start === block.start && known.end === block.end ? known.value : valueAtPath(body, block.start, part.path);
  if (value === undefined) throw new Error(`part ${part.part} ${part.ordinal}: its string is gone`);
  const bytes = partTokenOf(body, value, part, elidedDir);
  const splice = { start: value.start, end: value.end, bytes };
  return {
    applied: { ordinal: part.ordinal, splice, at: { messageIndex: part.messageIndex, blockIndex: part.blockIndex } },
    splice,
    bytes: part.bytes,
    messages: 0,
  };
}

function checkFrozenBlock(body: Uint8Array, target: ToolResultInfo | undefined, block: FrozenBlock, options: RewriteOptions): BlockSkipReason | undefined {
  if (target === undefined) return 'missing_block';
  if (target.toolUseId !== block.toolUseId) return 'id_mismatch';
  // The content's JSON bytes must be exactly those the epoch froze (and whose text is on disk):
  // then the stub stands for them and inflate rebuilds them. Length first: it costs nothing.
  if (target.content.end - target.content.start !== block.jsonBytes) return 'hash_mismatch';
  if (options.sha256(body.subarray(target.content.start, target.content.end)) !== block.jsonSha256) return 'hash_mismatch';
  if (options.isAvailable !== undefined && !options.isAvailable(block)) return 'file_missing';
  return undefined;
}

/** Tool results: a stub in place of each frozen block's `content` value. */
export const TOOL_RESULTS: EpochApplier<FrozenBlock, StubbedBlock, SkippedBlock, BlockVerdict, RewriteOptions, FoundStub> = {
  noun: 'blocks',
  fileMissing: { skip: 'file_missing', reason: 'elided_file_missing' },
  judge: judgeBlocks,
  check(body, index, out, judged, thinking, options) {
    // Another API's output is checked by its own index, with nothing kept for an incremental rewrite.
    if (options.api !== undefined && !options.api.supports.keyFromHead) {
      const failure = checkRewrite(body, index, out, judged.applied, options.api);
      return failure === undefined ? { ok: true } : { ok: false, failure };
    }
    return checkOutput(body, index, out, judged.applied, thinking.removed);
  },
  findStubs,
};

/** Rewrites a request body for a conversation's frozen blocks (what `elide` and `replay` call). Never throws. */
export function rewriteRequest(body: Uint8Array, frozen: readonly FrozenBlock[], options: RewriteOptions): RewriteOutcome {
  return applyEpochs(TOOL_RESULTS, body, frozen, options);
}
