/**
 * The rewrite: `(request bytes, frozen blocks) -> rewritten | passthrough(reason)`. A pure
 * function: it locates each frozen block by ordinal, checks it is still the block the epoch froze,
 * splices a stub into its `content` value, checks its own output, and otherwise fails open.
 */
import { MESSAGES_API, type ApiDialect } from './api-dialect.js';
import { checkOutput, checkRewrite, type StubbedBlock } from './check-rewrite.js';
import type { FrozenBlock } from './epoch-types.js';
import { encodeJsonString } from './json-string.js';
import type { BlockSkipReason, PassthroughReason } from './passthrough-reasons.js';
import type { Sha256 } from './ports.js';
import { applySplices, planSplices, type Allocate } from './splices.js';
import { renderStub } from './stub.js';
import { judgeThinking, NO_THINKING, type JudgedThinking, type SkippedThinking } from './thinking/remove-thinking.js';
import type { FrozenThinking, ThinkingVerdict } from './thinking/thinking-types.js';
import type { ResumableIndex, ToolResultInfo, TranscriptIndex } from './transcript-index.js';
import { errorText } from '../errors.js';

/** A frozen block left alone in this request, and why. */
export interface SkippedBlock {
  readonly ordinal: number;
  readonly reason: BlockSkipReason;
}

/** The result of a rewrite. A pass-through's `body` is the input itself. */
export type RewriteOutcome =
  | {
      readonly kind: 'rewritten';
      readonly body: Uint8Array;
      /** Stubs in this request (the wire record's `rescued`). */
      readonly stubs: number;
      /** Text bytes the stubs stand for. */
      readonly bytesElided: number;
      readonly skipped: readonly SkippedBlock[];
      /** Frozen thinking blocks removed from this request (docs/rescue.md, "Preserved thinking"). */
      readonly thinkingRemoved: number;
      readonly thinkingSkipped: readonly SkippedThinking[];
    }
  | {
      readonly kind: 'passthrough';
      readonly body: Uint8Array;
      readonly reason: PassthroughReason;
      readonly detail: string;
      readonly skipped: readonly SkippedBlock[];
    };

/** What the rewrite needs from outside. */
export interface RewriteOptions {
  /** Absolute path of `<state>/elided`, named in every stub. */
  readonly elidedDir: string;
  readonly sha256: Sha256;
  /** Whether the block's elided file(s) exist; a stub must never name a missing file. */
  readonly isAvailable?: (block: FrozenBlock) => boolean;
  /** The body's index, when the caller already built it (saves a pass). */
  readonly index?: TranscriptIndex;
  /** Allocates the output (the edge passes `Buffer.allocUnsafe`; see applySplices). */
  readonly allocate?: Allocate;
  /** The API the body speaks, which indexes it and the output (Messages by default). */
  readonly api?: ApiDialect;
  /**
   * The thinking blocks the conversation's epochs removed (Messages only; none by default), and
   * whether each one's file exists: a block is removed only when it can be given back.
   */
  readonly thinking?: readonly FrozenThinking[];
  readonly isThinkingAvailable?: (block: FrozenThinking) => boolean;
}

/** The frozen thinking a rewrite applies: none for another API than Messages. */
export function thinkingOf(options: RewriteOptions): readonly FrozenThinking[] {
  return options.api !== undefined && options.api.name !== 'messages' ? [] : (options.thinking ?? []);
}

const ENCODER = new TextEncoder();

// A stub is a pure function of its block and the elided directory, and the proxy hands in the
// same frozen block objects on every request of a conversation: remember each one's JSON token.
const STUB_TOKENS = new WeakMap<FrozenBlock, { readonly elidedDir: string; readonly token: Uint8Array }>();

/** The stub for `block` as a JSON string token. */
function stubToken(block: FrozenBlock, elidedDir: string): Uint8Array {
  const known = STUB_TOKENS.get(block);
  if (known !== undefined && known.elidedDir === elidedDir) return known.token;
  const token = encodeJsonString(ENCODER.encode(renderStub(block, elidedDir)));
  STUB_TOKENS.set(block, { elidedDir, token });
  return token;
}

/** Rewrites a request body for a conversation's frozen blocks. Never throws. */
export function rewriteRequest(body: Uint8Array, frozen: readonly FrozenBlock[], options: RewriteOptions): RewriteOutcome {
  if (frozen.length === 0 && thinkingOf(options).length === 0) return passthroughOf(body, 'no_epoch', 'no frozen blocks');
  try {
    let index = options.index;
    if (index === undefined) {
      const indexed = (options.api ?? MESSAGES_API).index(body);
      if (indexed.kind === 'failed') return passthroughOf(body, indexed.reason, indexed.detail);
      index = indexed.index;
    }
    return rewriteIndexed(body, index, frozen, options).outcome;
  } catch (error) {
    return passthroughOf(body, 'internal_error', errorText(error));
  }
}

/** What one frozen block came to in a request: stubbed, or left alone and why. */
export type BlockVerdict = 'stubbed' | BlockSkipReason;

/** A rewrite's outcome and, when it rewrote, what an incremental rewrite may reuse of it. */
export interface IndexedRewrite {
  readonly outcome: RewriteOutcome;
  /** The output's index, built from the output's bytes by the check (when rewritten). */
  readonly after?: ResumableIndex;
  /** Each frozen block's verdict, in the order of `frozen`. */
  readonly verdicts: readonly BlockVerdict[];
  /** Each frozen thinking block's verdict, in the order of `options.thinking`. */
  readonly thinkingVerdicts: readonly ThinkingVerdict[];
}

/** The rewrite of a body whose index is known; may throw (callers catch). */
export function rewriteIndexed(body: Uint8Array, index: TranscriptIndex, frozen: readonly FrozenBlock[], options: RewriteOptions): IndexedRewrite {
  const judged = judgeFrozenBlocks(body, index, frozen, options, undefined);
  const thinking = judgeThinkingOf(body, index, options, undefined);
  const verdicts = { verdicts: judged.verdicts, thinkingVerdicts: thinking.verdicts };
  const noStub = noStubOutcome(body, judged, thinking);
  if (noStub !== undefined) return { outcome: noStub, ...verdicts };
  const splices = planSplices([...judged.stubbed.map((s) => s.splice), ...thinking.splices.map((t) => t.splice)], body.length);
  if (splices === undefined) return { outcome: passthroughOf(body, 'self_check_failed', 'overlapping splices', judged.skipped), ...verdicts };
  const out = applySplices(body, splices, options.allocate);
  // Another API's output is checked by its own index, with nothing kept for an incremental rewrite.
  if (options.api !== undefined && options.api.name !== 'messages') {
    const failure = checkRewrite(body, index, out, judged.stubbed, options.api);
    if (failure !== undefined) return { outcome: passthroughOf(body, 'self_check_failed', failure, judged.skipped), ...verdicts };
    return { outcome: rewrittenOf(out, judged, thinking), ...verdicts };
  }
  const check = checkOutput(body, index, out, judged.stubbed, thinking.removed);
  if (!check.ok) return { outcome: passthroughOf(body, 'self_check_failed', check.failure, judged.skipped), ...verdicts };
  return { outcome: rewrittenOf(out, judged, thinking), after: check.after, ...verdicts };
}

/** The conversation's frozen thinking judged against the body (none for another API). */
export function judgeThinkingOf(
  body: Uint8Array,
  index: TranscriptIndex,
  options: RewriteOptions,
  reuse: ((i: number) => ThinkingVerdict | undefined) | undefined,
): JudgedThinking {
  const thinking = thinkingOf(options);
  if (thinking.length === 0) return NO_THINKING;
  return judgeThinking(body, index, thinking, {
    sha256: options.sha256,
    ...(options.isThinkingAvailable === undefined ? {} : { isAvailable: options.isThinkingAvailable }),
    ...(reuse === undefined ? {} : { reuse }),
  });
}

/** The frozen blocks judged against one body: verdicts, splices, skips. */
export interface JudgedBlocks {
  readonly verdicts: readonly BlockVerdict[];
  readonly stubbed: readonly StubbedBlock[];
  readonly skipped: readonly SkippedBlock[];
  readonly bytesElided: number;
}

/**
 * Judges every frozen block against the body, in the order of `frozen`. `reuse(i)`, when given,
 * may supply block i's verdict instead of checking its bytes (the incremental rewrite does, for
 * blocks in a prefix it already checked); it is consulted first.
 */
export function judgeFrozenBlocks(
  body: Uint8Array,
  index: TranscriptIndex,
  frozen: readonly FrozenBlock[],
  options: RewriteOptions,
  reuse: ((i: number) => BlockVerdict | undefined) | undefined,
): JudgedBlocks {
  const verdicts: BlockVerdict[] = [];
  const skipped: SkippedBlock[] = [];
  const stubbed: StubbedBlock[] = [];
  let bytesElided = 0;
  for (const [i, block] of frozen.entries()) {
    const verdict = reuse?.(i) ?? checkFrozenBlock(body, index.toolResults[block.ordinal], block, options) ?? 'stubbed';
    verdicts.push(verdict);
    if (verdict !== 'stubbed') {
      skipped.push({ ordinal: block.ordinal, reason: verdict });
      continue;
    }
    const target = index.toolResults[block.ordinal]!;
    stubbed.push({ ordinal: block.ordinal, splice: { start: target.content.start, end: target.content.end, bytes: stubToken(block, options.elidedDir) } });
    bytesElided += block.bytes;
  }
  return { verdicts, stubbed, skipped, bytesElided };
}

/** The pass-through when no block could be stubbed and no thinking block removed, else `undefined`. */
export function noStubOutcome(body: Uint8Array, judged: JudgedBlocks, thinking: JudgedThinking = NO_THINKING): RewriteOutcome | undefined {
  if (judged.stubbed.length > 0 || thinking.count > 0) return undefined;
  const allMissing = judged.skipped.every((s) => s.reason === 'file_missing');
  return passthroughOf(body, allMissing ? 'elided_file_missing' : 'epoch_mismatch', `${judged.skipped.length} frozen blocks skipped`, judged.skipped);
}

/** The rewritten outcome for an output that passed its check. */
export function rewrittenOf(out: Uint8Array, judged: JudgedBlocks, thinking: JudgedThinking = NO_THINKING): RewriteOutcome {
  return {
    kind: 'rewritten',
    body: out,
    stubs: judged.stubbed.length,
    bytesElided: judged.bytesElided,
    skipped: judged.skipped,
    thinkingRemoved: thinking.count,
    thinkingSkipped: thinking.skipped,
  };
}

/** A pass-through: the input itself goes upstream. */
export function passthroughOf(body: Uint8Array, reason: PassthroughReason, detail: string, skipped: readonly SkippedBlock[] = []): RewriteOutcome {
  return { kind: 'passthrough', body, reason, detail, skipped };
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
