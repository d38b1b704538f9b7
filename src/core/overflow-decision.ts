/**
 * Whether an overflow latches an epoch: the API refused a request as too long, and ctxshed may
 * latch at once and send the rewritten request once more (docs/rescue.md, "Rescue on overflow").
 * A pure decision, beside latch-decision.ts, with a different rule:
 *
 * 1. The threshold and the staleness rule do not apply: the reading is of this very request,
 *    which carried every epoch there was, and it is over the limit, not merely over a threshold.
 * 2. The blocks not yet frozen must bring the request under the limit, estimated from the bytes
 *    their stubs take out and this request's own tokens per byte. The 10% gain rule of threshold
 *    latches is replaced by this one: an epoch that frees something but not enough costs a cache
 *    re-write and a second refusal, and the client then compacts anyway.
 */
import type { FrozenBlock } from './epoch-types.js';
import { encodeJsonString } from './json-string.js';
import { DEFAULT_TOKENS_PER_BYTE } from './latch-decision.js';
import type { PlannedBlock } from './plan-elision.js';
import { renderStub } from './stub.js';

/** Everything the decision looks at. */
export interface OverflowInput {
  /** The prompt's tokens as the API's error counted them. */
  readonly tokens: number;
  /** The most tokens the retry may carry: the maximum the error named, else the window. */
  readonly limit: number;
  /** Bytes of the refused request as it was sent. */
  readonly requestBytes: number;
  /** Blocks frozen by the conversation's epochs so far. */
  readonly frozen: readonly FrozenBlock[];
  /** The plan for this request (the policy's eligible blocks). */
  readonly plan: readonly PlannedBlock[];
  /** Where the stubs point: their length counts against what they free. */
  readonly elidedDir: string;
}

/** The decision, with what it expects the retry to weigh. */
export type OverflowDecision =
  | { readonly latch: false; readonly why: 'nothing_new' | 'not_enough'; readonly estimatedTokens?: number }
  | { readonly latch: true; readonly added: readonly PlannedBlock[]; readonly estimatedTokensFreed: number; readonly estimatedTokens: number };

/** Decides whether the overflow latches a new epoch. */
export function decideOverflowLatch(input: OverflowInput): OverflowDecision {
  const frozen = new Set(input.frozen.map((b) => b.ordinal));
  const added = input.plan.filter((b) => !frozen.has(b.ordinal));
  if (added.length === 0) return { latch: false, why: 'nothing_new' };
  const tokensPerByte = input.requestBytes > 0 ? input.tokens / input.requestBytes : DEFAULT_TOKENS_PER_BYTE;
  // Only the content value changes: the block's JSON goes, its stub's JSON comes.
  const bytesFreed = added.reduce((sum, b) => sum + Math.max(0, b.jsonBytes - stubJsonBytes(b, input.elidedDir)), 0);
  const estimatedTokensFreed = Math.round(bytesFreed * tokensPerByte);
  const estimatedTokens = input.tokens - estimatedTokensFreed;
  if (estimatedTokens > input.limit) return { latch: false, why: 'not_enough', estimatedTokens };
  return { latch: true, added, estimatedTokensFreed, estimatedTokens };
}

const UTF8 = new TextEncoder();

function stubJsonBytes(block: FrozenBlock, elidedDir: string): number {
  return encodeJsonString(UTF8.encode(renderStub(block, elidedDir))).length;
}
