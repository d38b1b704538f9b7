/**
 * Rescue mode's kind of epoch: frozen tool results. Each frozen block is found by its ordinal,
 * checked to be still the block the epoch froze, and its `content` value replaced by a stub
 * (docs/core.md, "The rewrite"). apply.ts runs the rest.
 */
import type { FrozenBlock } from '../../epoch-types.js';
import { encodeJsonString } from '../../json-string.js';
import type { BlockSkipReason } from '../../passthrough-reasons.js';
import { renderStub } from '../../stub.js';
import type { ToolResultInfo, TranscriptIndex } from '../../transcript-index.js';
import { applyEpochs, type EpochOutcome } from '../apply.js';
import { checkOutput, checkRewrite, type StubbedBlock } from './check-tool-results.js';
import type { EpochApplier, ItemOptions, JudgedItems } from '../epoch-applier.js';
import { findStubs, type FoundStub } from '../inflate.js';
import { judgeItems } from '../judge-items.js';
import { cachedStubs } from '../stub-cache.js';

/** A frozen block left alone in this request, and why. */
export interface SkippedBlock {
  readonly ordinal: number;
  readonly reason: BlockSkipReason;
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
    (block, i) => reuse?.(i) ?? checkFrozenBlock(body, index.toolResults[block.ordinal], block, options) ?? 'stubbed',
    (block) => {
      const { content } = index.toolResults[block.ordinal]!;
      const splice = { start: content.start, end: content.end, bytes: stubToken(block, options.elidedDir) };
      return { applied: { ordinal: block.ordinal, splice }, splice, bytes: block.bytes, messages: 0 };
    },
    (block, reason) => ({ ordinal: block.ordinal, reason }),
  );
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
