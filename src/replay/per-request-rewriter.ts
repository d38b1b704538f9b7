/**
 * Per-request rewriting of one conversation (rewrite-every-request.ts), at the cost of what is new:
 * each request is the last one plus a turn, so its index resumes where the bytes stop being shared
 * (core/incremental-index.ts), the eligible blocks keep the verdict their own bytes gave last time
 * (core/eligible-blocks.ts), a block still where it was keeps its hashes, and the rewrite reuses
 * the last one's output while the stubbed set is unchanged (core/incremental-rewrite.ts). The
 * outcome is `rewriteEveryRequest`'s, byte for byte (test/replay/per-request-rewriter.test.ts).
 */
import { isCanonicalContent } from '../core/block-text.js';
import {
  findEligible,
  indexIncrementally,
  rewriteIncrementally,
  type EligibilityMemo,
  type ElisionPolicy,
  type FrozenBlock,
  type RewriteMemo,
  type Sha256,
} from '../core/index.js';
import { elidableText } from '../core/plan-elision.js';
import type { TranscriptIndex } from '../core/transcript-index-types.js';
import { commonPrefixLength } from '../rescue/common-prefix-length.js';
import type { EveryRequestOutcome } from './rewrite-every-request.js';

/** A block's frozen record, by where it sat in the last body. */
interface KnownBlock {
  readonly end: number;
  readonly block: FrozenBlock;
}

/** The rewriter of one conversation's requests, fed in order. */
export class PerRequestRewriter {
  #memo: RewriteMemo | undefined;
  #eligibility: EligibilityMemo | undefined;
  #lastBody: Uint8Array | undefined;
  #known = new Map<number, KnownBlock>();
  readonly #always = (): boolean => true;

  constructor(
    readonly policy: ElisionPolicy,
    readonly elidedDir: string,
    readonly sha256: Sha256,
  ) {}

  /** Stubs every block eligible in `body`, as `rewriteEveryRequest(body, policy, elidedDir, sha256)` would. */
  rewrite(body: Uint8Array): EveryRequestOutcome {
    const indexed = indexIncrementally(body, this.#memo, commonPrefixLength);
    if (indexed.outcome.kind === 'failed') return { body, stubbed: new Map(), reason: indexed.outcome.reason };
    const { index } = indexed.outcome;
    const eligible = findEligible(body, index, this.policy, {}, this.#eligibility, commonPrefixLength);
    this.#eligibility = eligible.memo;
    const frozen = this.#frozenList(body, index, eligible.blocks);
    if (frozen.length === 0) return { body, stubbed: new Map() };
    const options = { elidedDir: this.elidedDir, sha256: this.sha256, isAvailable: this.#always, index };
    const rewrite = rewriteIncrementally(body, frozen, options, indexed);
    if (rewrite.memo !== undefined) this.#memo = rewrite.memo;
    const { outcome } = rewrite;
    if (outcome.kind === 'passthrough') return { body, stubbed: new Map(), reason: outcome.reason };
    const skipped = new Set(outcome.skipped.map((s) => s.ordinal));
    return { body: outcome.body, stubbed: new Map(frozen.filter((b) => !skipped.has(b.ordinal)).map((b) => [b.toolUseId, b.bytes])) };
  }

  /**
   * The frozen records `planElision` would plan for these blocks, a block whose bytes the last
   * body shares at the same place keeping its record; the last rewrite's very list when nothing
   * changed, so that its memo serves.
   */
  #frozenList(body: Uint8Array, index: TranscriptIndex, blocks: ReadonlyArray<{ readonly ordinal: number }>): readonly FrozenBlock[] {
    const shared = this.#lastBody === undefined ? 0 : commonPrefixLength(this.#lastBody, body);
    const known = new Map<number, KnownBlock>();
    const frozen: FrozenBlock[] = [];
    for (const { ordinal } of blocks) {
      const result = index.toolResults[ordinal]!;
      const was = this.#known.get(result.start);
      const reuse = was !== undefined && was.end === result.end && result.end <= shared && was.block.ordinal === ordinal;
      const block = reuse ? was.block : this.#freeze(body, index, ordinal);
      known.set(result.start, { end: result.end, block });
      frozen.push(block);
    }
    this.#known = known;
    this.#lastBody = body;
    const last = this.#memo?.frozen;
    return last !== undefined && last.length === frozen.length && last.every((b, i) => b === frozen[i]) ? last : frozen;
  }

  /** One block's frozen record, as `freezeBlock(planElision(...)[i])` makes it. */
  #freeze(body: Uint8Array, index: TranscriptIndex, ordinal: number): FrozenBlock {
    const result = index.toolResults[ordinal]!;
    const text = elidableText(body, result, this.policy)!;
    const json = body.subarray(result.content.start, result.content.end);
    const jsonSha256 = this.sha256(json);
    const base = { ordinal, toolUseId: result.toolUseId, bytes: text.length, sha256: this.sha256(text), jsonBytes: json.length, jsonSha256 };
    return isCanonicalContent(body, result, text) ? base : { ...base, rawSha256: jsonSha256 };
  }
}
