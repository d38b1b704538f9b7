/**
 * Judging the eligible blocks from the conversation's last request (core/eligible-blocks.ts)
 * never changes a latch decision: over a generated conversation sent request after request, with
 * what may happen between two requests (a rewind, the client clearing an old result, byte and
 * letter edits, a truncation, another elided directory or policy), every request's eligible
 * blocks equal `planElision`'s, minus the hashes, and `decideEpoch` decides the same on both, for
 * any reading, threshold and frozen set.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CLIENT_CLEARED_PLACEHOLDER, planElision } from '../src/core/plan-elision.js';
import { commonPrefixLengthLoop } from '../src/core/common-prefix.js';
import { decideEpoch, type EpochDecision } from '../src/core/decide/decide-epoch.js';
import { findEligible, type EligibilityMemo } from '../src/core/eligible-blocks.js';
import { indexTranscript } from '../src/core/messages/transcript-index.js';
import type { CommonPrefixLength } from '../src/core/ports.js';
import type { DecidedBlock } from '../src/core/weigh-added.js';
import type { ElisionPolicy, FrozenBlock } from '../src/core/epoch-types.js';
import type { EpochInput } from '../src/core/decide/decide-epoch.js';
import { commonPrefixLength as nativeCommonPrefixLength } from '../src/rescue/common-prefix-length.js';
import { conversationArb, type ClientRequest } from './arbitraries/index.js';
import { applyByteEdit, byteEditArb, type ByteEdit } from './arbitraries/mutations.js';
import { concatBytes, utf8 } from './support/bytes.js';
import { elidedDirArb, policyArb } from './support/rewrite-support.js';
import { sha256 } from './support/sha256.js';

/** What may happen between two requests of a conversation. */
type Step =
  | { readonly kind: 'next' }
  | { readonly kind: 'resend' }
  | { readonly kind: 'rewind'; readonly to: number }
  | { readonly kind: 'cleared'; readonly which: number }
  | { readonly kind: 'overwritten'; readonly which: number }
  | { readonly kind: 'byte edit'; readonly edit: ByteEdit }
  | { readonly kind: 'letter edit'; readonly at: number; readonly letter: number }
  | { readonly kind: 'truncate'; readonly at: number }
  | { readonly kind: 'elided dir'; readonly dir: string }
  | { readonly kind: 'policy'; readonly policy: ElisionPolicy };

/** Elided directories that the generated tool calls often name (a read back), besides the usual ones. */
const dirArb = fc.oneof(elidedDirArb, fc.constantFrom('a', 'e', 'i', 'o', 'x'));

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 10, arbitrary: fc.constant({ kind: 'next' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'resend' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rewind' as const), to: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('cleared' as const), which: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('overwritten' as const), which: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('byte edit' as const), edit: byteEditArb }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('letter edit' as const), at: fc.nat(), letter: fc.integer({ min: 0x61, max: 0x7a }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('elided dir' as const), dir: dirArb }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('policy' as const), policy: policyArb }) },
);

/** Small policies, so that most generated bodies have eligible blocks. */
const eagerPolicyArb = fc.oneof(policyArb, fc.record({ keepRecent: fc.integer({ min: 0, max: 2 }), minBytes: fc.integer({ min: 1, max: 100 }) }));

/** A reading and the rest of a decision's inputs, scaled to the body so that every outcome occurs. */
const judgeArb = fc.record({
  fullness: fc.double({ min: 0, max: 1.2, noNaN: true }),
  threshold: fc.double({ min: 0.05, max: 1, noNaN: true }),
  tokensPerByte: fc.double({ min: 0.01, max: 1, noNaN: true }),
  epochsApplied: fc.nat({ max: 3 }),
  epochCount: fc.nat({ max: 3 }),
  frozenMask: fc.array(fc.boolean(), { maxLength: 40 }),
  minGainFraction: fc.double({ min: 0, max: 0.3, noNaN: true }),
});

const prefixPortArb: fc.Arbitrary<CommonPrefixLength> = fc.constantFrom(commonPrefixLengthLoop, nativeCommonPrefixLength);

interface Session {
  cursor: number;
  elidedDir: string;
  policy: ElisionPolicy;
  memo: EligibilityMemo | undefined;
}

/** The request with one lowercase ASCII letter (the `at`-th, cyclically) replaced. */
function editLetter(bytes: Uint8Array, at: number, letter: number): Uint8Array {
  const letters: number[] = [];
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! >= 0x61 && bytes[i]! <= 0x7a) letters.push(i);
  const out = bytes.slice();
  if (letters.length === 0) return out;
  const i = letters[at % letters.length]!;
  out[i] = letter === out[i] ? (letter === 0x7a ? 0x61 : letter + 1) : letter;
  return out;
}

/** The body with one tool result's content replaced by the client's placeholder, as Claude Code clears old results. */
function clearResult(body: Uint8Array, which: number): Uint8Array {
  const outcome = indexTranscript(body);
  if (outcome.kind !== 'indexed' || outcome.index.toolResults.length === 0) return body;
  const { content } = outcome.index.toolResults[which % outcome.index.toolResults.length]!;
  if (content.kind === 'absent') return body;
  return concatBytes([body.subarray(0, content.start), utf8(JSON.stringify(CLIENT_CLEARED_PLACEHOLDER)), body.subarray(content.end)]);
}

/**
 * The body with one string content's bytes overwritten by as many `x`: every offset stays, and
 * its text changes size when the string had escapes (a verdict kept by position alone would be wrong).
 */
function overwriteResult(body: Uint8Array, which: number): Uint8Array {
  const outcome = indexTranscript(body);
  if (outcome.kind !== 'indexed' || outcome.index.toolResults.length === 0) return body;
  const { content } = outcome.index.toolResults[which % outcome.index.toolResults.length]!;
  if (content.kind !== 'string') return body;
  const out = body.slice();
  out.fill(0x78, content.start + 1, content.end - 1);
  return out;
}

function bodyOf(step: Step, requests: readonly ClientRequest[], s: Session): Uint8Array {
  const current = (): Uint8Array => requests[s.cursor]!.bytes;
  switch (step.kind) {
    case 'next':
      s.cursor = Math.min(s.cursor + 1, requests.length - 1);
      return current();
    case 'resend':
      return current().slice();
    case 'rewind':
      s.cursor = step.to % (s.cursor + 1);
      return current();
    case 'cleared':
      return clearResult(current(), step.which);
    case 'overwritten':
      return overwriteResult(current(), step.which);
    case 'byte edit':
      return applyByteEdit(current(), step.edit);
    case 'letter edit':
      return editLetter(current(), step.at, step.letter);
    case 'truncate':
      return current().subarray(0, step.at % (current().length + 1));
    case 'elided dir':
      s.elidedDir = step.dir;
      return current();
    case 'policy':
      s.policy = step.policy;
      return current();
  }
}

/** A decision as far as a request or the wire log can tell (the blocks added, by ordinal). */
function summary<B extends DecidedBlock>(decision: EpochDecision<B>): object {
  switch (decision.kind) {
    case 'latch':
      return { latch: true, fullness: decision.fullness, added: decision.added.map((b) => [b.ordinal, b.bytes]), freed: decision.estimatedTokensFreed };
    case 'hold':
      return { latch: false, why: decision.reason, detail: decision.detail };
    case 'idle':
      return { latch: false };
  }
}

/** The decision on a rescue take of `plan` (the frozen blocks left out by the decision itself). */
function decideOn<B extends DecidedBlock>(
  input: Omit<EpochInput<B>, 'take'> & { readonly frozen: readonly FrozenBlock[] },
  plan: readonly B[],
): EpochDecision<B> {
  const { frozen, ...rest } = input;
  return decideEpoch({ ...rest, take: () => ({ kind: 'blocks', frozen, plan }) });
}

describe('findEligible', () => {
  it('should find the blocks planElision plans, and decide every latch as planElision would, whatever happens between requests', () => {
    fc.assert(
      fc.property(
        conversationArb(8, 2),
        fc.array(fc.tuple(stepArb, judgeArb), { minLength: 2, maxLength: 14 }),
        eagerPolicyArb,
        dirArb,
        prefixPortArb,
        (requests, steps, policy, elidedDir, commonPrefixLength) => {
          const s: Session = { cursor: 0, elidedDir, policy, memo: undefined };
          for (const [step, judge] of steps) {
            const body = bodyOf(step, requests, s);
            const outcome = indexTranscript(body);
            if (outcome.kind !== 'indexed') continue; // such a request never reaches the latch
            const { index } = outcome;
            const options = { elidedDir: s.elidedDir };

            const eligible = findEligible(body, index, s.policy, options, s.memo, commonPrefixLength);
            const plan = planElision(body, index, s.policy, sha256, options);

            expect(eligible.blocks).toEqual(plan.map((b) => ({ ordinal: b.ordinal, toolUseId: b.toolUseId, bytes: b.bytes })));
            const frozen: FrozenBlock[] = plan.filter((_, i) => judge.frozenMask[i] === true);
            const window = Math.max(1, Math.round(body.length * judge.tokensPerByte));
            const input = {
              reading: { contextTokens: Math.round(judge.fullness * window), window, epochsApplied: judge.epochsApplied, requestBytes: body.length },
              thresholds: { threshold: judge.threshold },
              frozen,
              epochCount: judge.epochCount,
              minGainFraction: judge.minGainFraction,
            };
            expect(summary(decideOn(input, eligible.blocks))).toEqual(summary(decideOn(input, plan)));
            s.memo = eligible.memo;
          }
        },
      ),
    );
  });
});
