/**
 * The rewrite: `(request bytes, frozen blocks) -> rewritten | passthrough(reason)`. A pure
 * function: it locates each frozen block by ordinal, checks it is still the block the epoch froze,
 * splices a stub into its `content` value, checks its own output, and otherwise fails open.
 */
import { checkRewrite, type StubbedBlock } from './check-rewrite.js';
import type { FrozenBlock } from './epoch-types.js';
import { encodeJsonString } from './json-string.js';
import type { BlockSkipReason, PassthroughReason } from './passthrough-reasons.js';
import type { Sha256 } from './ports.js';
import { applySplices, planSplices, type Allocate, type Splice } from './splices.js';
import { renderStub } from './stub.js';
import { indexTranscript, type ToolResultInfo, type TranscriptIndex } from './transcript-index.js';
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
  const pass = (reason: PassthroughReason, detail: string, skipped: readonly SkippedBlock[] = []): RewriteOutcome => ({
    kind: 'passthrough', body, reason, detail, skipped,
  });
  try {
    if (frozen.length === 0) return pass('no_epoch', 'no frozen blocks');
    let index = options.index;
    if (index === undefined) {
      const indexed = indexTranscript(body);
      if (indexed.kind === 'failed') return pass(indexed.reason, indexed.detail);
      index = indexed.index;
    }
    const skipped: SkippedBlock[] = [];
    const stubbed: StubbedBlock[] = [];
    let bytesElided = 0;
    for (const block of frozen) {
      const why = checkFrozenBlock(body, index.toolResults[block.ordinal], block, options);
      if (why !== undefined) {
        skipped.push({ ordinal: block.ordinal, reason: why });
        continue;
      }
      const target = index.toolResults[block.ordinal]!;
      const stub = stubToken(block, options.elidedDir);
      stubbed.push({ ordinal: block.ordinal, splice: { start: target.content.start, end: target.content.end, bytes: stub } });
      bytesElided += block.bytes;
    }
    if (stubbed.length === 0) {
      const allMissing = skipped.every((s) => s.reason === 'file_missing');
      return pass(allMissing ? 'elided_file_missing' : 'epoch_mismatch', `${skipped.length} frozen blocks skipped`, skipped);
    }
    const splices = planSplices(stubbed.map((s) => s.splice), body.length);
    if (splices === undefined) return pass('self_check_failed', 'overlapping splices', skipped);
    const out = applySplices(body, splices, options.allocate);
    const failure = checkRewrite(body, index, out, stubbed);
    if (failure !== undefined) return pass('self_check_failed', failure, skipped);
    return { kind: 'rewritten', body: out, stubs: stubbed.length, bytesElided, skipped };
  } catch (error) {
    return pass('internal_error', errorText(error));
  }
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
