/**
 * The incremental rewrite (core/incremental-rewrite.ts) is the full rewrite, only cheaper: over a
 * generated conversation sent request after request with the client's between-turn edits, and
 * with everything else that may happen between two requests (a rewind, an edit before the resume
 * boundary, a truncation, arbitrary bytes, a new epoch, a frozen list rebuilt, an elided file
 * lost or found, another elided directory), every request's index and outcome equal, byte for
 * byte and reason for reason, what `indexTranscript` and `rewriteRequest` give from scratch.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commonPrefixLengthLoop } from '../src/core/common-prefix.js';
import { indexIncrementally } from '../src/core/rewrite/incremental-index.js';
import { indexTranscript } from '../src/core/messages/transcript-index.js';
import { rewriteIncrementally } from '../src/core/rewrite/incremental-rewrite.js';
import { rewriteRequest, type RewriteOutcome } from '../src/core/epochs/tool-results/tool-results.js';
import type { CommonPrefixLength } from '../src/core/ports.js';
import { firstChangeOfEpoch } from '../src/core/epochs/first-change.js';
import { freezeThinking, planThinking } from '../src/core/thinking/plan-thinking.js';
import type { FrozenBlock } from '../src/core/epoch-types.js';
import type { FrozenThinking } from '../src/core/thinking/thinking-types.js';
import type { RewriteMemo } from '../src/core/rewrite/rewrite-memo.js';
import { commonPrefixLength as nativeCommonPrefixLength } from '../src/rescue/common-prefix-length.js';
import { conversationArb, type ClientRequest } from './arbitraries/index.js';
import { applyByteEdit, byteEditArb, type ByteEdit } from './arbitraries/mutations.js';
import { concatBytes, sameBytes, utf8 } from './support/bytes.js';
import { elidedDirArb, frozenOf, indexOf, maskArb, pickBlocks, planOf, policyArb } from './support/rewrite-support.js';
import { sha256 } from './support/sha256.js';

/** What may happen between two requests of a conversation. */
type Step =
  | { readonly kind: 'next' }
  | { readonly kind: 'resend' }
  | { readonly kind: 'rewind'; readonly to: number }
  | { readonly kind: 'byte edit'; readonly edit: ByteEdit }
  | { readonly kind: 'letter edit'; readonly at: number; readonly letter: number }
  | { readonly kind: 'boundary edit'; readonly message: number; readonly delta: number; readonly edit: ByteEdit }
  | { readonly kind: 'truncate'; readonly at: number }
  | { readonly kind: 'bytes'; readonly bytes: Uint8Array }
  | { readonly kind: 'model after messages'; readonly model: string }
  | { readonly kind: 'new epoch'; readonly mask: boolean[] }
  | { readonly kind: 'list rebuilt' }
  | { readonly kind: 'list changed in place'; readonly which: number }
  | { readonly kind: 'file toggled'; readonly which: number }
  | { readonly kind: 'thinking file toggled'; readonly which: number }
  | { readonly kind: 'elided dir'; readonly dir: string };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 12, arbitrary: fc.constant({ kind: 'next' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'resend' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rewind' as const), to: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('byte edit' as const), edit: byteEditArb }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('letter edit' as const), at: fc.nat(), letter: fc.integer({ min: 0x61, max: 0x7a }) }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('boundary edit' as const), message: fc.nat(), delta: fc.integer({ min: -1, max: 1 }), edit: byteEditArb }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('bytes' as const), bytes: fc.uint8Array({ maxLength: 300 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('model after messages' as const), model: fc.constantFrom('m', 'claude-x', '\u006d') }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('new epoch' as const), mask: maskArb }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'list rebuilt' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('list changed in place' as const), which: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('file toggled' as const), which: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('thinking file toggled' as const), which: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('elided dir' as const), dir: elidedDirArb }) },
);

/** Policies that elide more than the default, so that most conversations have frozen blocks. */
const eagerPolicyArb = fc.oneof(policyArb, fc.record({ keepRecent: fc.integer({ min: 0, max: 2 }), minBytes: fc.integer({ min: 1, max: 100 }) }));

/** Which request the first epoch was planned on: mostly the last (the most blocks). */
const planAtArb = fc.oneof(fc.constant(Number.MAX_SAFE_INTEGER), fc.nat());

/** The request `planAt` names. */
function requestAt(requests: readonly ClientRequest[], planAt: number): ClientRequest {
  return requests[Math.min(planAt, requests.length - 1)]!;
}

const prefixPortArb: fc.Arbitrary<CommonPrefixLength> = fc.constantFrom(commonPrefixLengthLoop, nativeCommonPrefixLength);

/** The request with one lowercase ASCII letter (the `at`-th, cyclically) replaced: still UTF-8, often still JSON. */
function editLetter(bytes: Uint8Array, at: number, letter: number): Uint8Array {
  const letters: number[] = [];
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! >= 0x61 && bytes[i]! <= 0x7a) letters.push(i);
  const out = bytes.slice();
  if (letters.length === 0) return out;
  const i = letters[at % letters.length]!;
  out[i] = letter === out[i] ? (letter === 0x7a ? 0x61 : letter + 1) : letter;
  return out;
}

function expectSameOutcome(actual: RewriteOutcome, expected: RewriteOutcome, input: Uint8Array): void {
  expect(actual.kind).toBe(expected.kind);
  expect(actual.skipped).toEqual(expected.skipped);
  if (expected.kind === 'passthrough') {
    // Field by field: a deep comparison of two bodies byte by byte would dominate the run time.
    expect(actual.kind === 'passthrough' && { reason: actual.reason, detail: actual.detail }).toEqual({ reason: expected.reason, detail: expected.detail });
    expect(actual.body).toBe(input);
    return;
  }
  if (actual.kind !== 'applied' || expected.kind !== 'applied') return;
  expect(actual.thinkingRemoved).toBe(expected.thinkingRemoved);
  expect(actual.thinkingSkipped).toEqual(expected.thinkingSkipped);
  expect(actual.stubs).toBe(expected.stubs);
  expect(actual.bytesTaken).toBe(expected.bytesTaken);
  expect(sameBytes(actual.body, expected.body)).toBe(true);
}

/** The conversation's state as the proxy would hold it between requests. */
interface Session {
  cursor: number;
  frozen: readonly FrozenBlock[];
  /** The thinking blocks the epoch removes, as on a prefix-check model (empty when the body has none after the change). */
  thinking: readonly FrozenThinking[];
  missing: Set<string>;
  elidedDir: string;
  memo: RewriteMemo | undefined;
}

/** The body this step sends, updating the session as the step says. */
function bodyOf(step: Step, requests: readonly ClientRequest[], s: Session, policy: { keepRecent: number; minBytes: number }): Uint8Array {
  const current = (): Uint8Array => requests[s.cursor]!.bytes;
  switch (step.kind) {
    case 'next':
      s.cursor = Math.min(s.cursor + 1, requests.length - 1);
      return current();
    case 'resend':
      return current().slice(); // the same bytes in another array
    case 'rewind':
      s.cursor = step.to % (s.cursor + 1);
      return current();
    case 'byte edit':
      return applyByteEdit(current(), step.edit);
    case 'letter edit':
      return editLetter(current(), step.at, step.letter);
    case 'boundary edit': {
      // Right at a resume boundary (the `[` of messages, or a message's closing `}`), where an
      // off-by-one would show.
      const body = current();
      const { messages, messagesSpan } = indexOf(body);
      // Half of them at the `[`: a resume there is the easiest to get wrong.
      const m = step.message % 2 === 0 ? 0 : (step.message >> 1) % (messages.length + 1);
      const at = (m === 0 ? messagesSpan.start : messages[m - 1]!.end - 1) + step.delta;
      return applyByteEdit(body, { ...step.edit, at: Math.max(0, at) });
    }
    case 'truncate':
      return current().subarray(0, step.at % (current().length + 1));
    case 'bytes':
      return step.bytes;
    case 'model after messages': {
      // A second `model` key at the end: the last one wins, and a resume must not take it for
      // the one before `messages`.
      const body = current();
      const close = body.lastIndexOf(0x7d);
      return concatBytes([body.subarray(0, close), utf8(`,"model":"${step.model}"`), body.subarray(close)]);
    }
    case 'new epoch':
      s.frozen = pickBlocks(planOf(current(), policy).map(frozenOf), step.mask);
      s.thinking = thinkingFor(current(), s.frozen);
      return current();
    case 'list rebuilt':
      s.frozen = [...s.frozen];
      return current();
    case 'list changed in place': {
      // Not what the proxy does (it replaces the list), but a memo must not be fooled by it.
      const list = s.frozen as FrozenBlock[];
      if (step.which % 2 === 0) list.pop();
      else list.reverse();
      return current();
    }
    case 'file toggled': {
      const block = s.frozen[step.which % Math.max(s.frozen.length, 1)];
      if (block !== undefined && !s.missing.delete(block.sha256)) s.missing.add(block.sha256);
      return current();
    }
    case 'thinking file toggled': {
      const block = s.thinking[step.which % Math.max(s.thinking.length, 1)];
      if (block !== undefined && !s.missing.delete(block.sha256)) s.missing.add(block.sha256);
      return current();
    }
    case 'elided dir':
      s.elidedDir = step.dir;
      return current();
  }
}

/** The thinking blocks an epoch freezing `frozen` on `body` removes (core/thinking/freeze-in-plan.ts). */
function thinkingFor(body: Uint8Array, frozen: readonly FrozenBlock[]): readonly FrozenThinking[] {
  const index = indexOf(body);
  const epoch = {
    n: 1,
    latchedAt: '',
    reason: { fullness: 1, threshold: 1, window: 1, contextTokens: 1 },
    kind: 'tool_results',
    policy: { name: 'p', version: 2, keepRecent: 0, minBytes: 0 },
    items: { tool_results: frozen },
  };
  const from = firstChangeOfEpoch(epoch, index);
  if (from === undefined) return [];
  const plan = planThinking(body, index, from, [], sha256);
  return plan.kind === 'planned' ? plan.thinking.map(freezeThinking) : [];
}

describe('rewriteIncrementally', () => {
  it('should give every request of a conversation the index and outcome of the full rewrite, whatever happens between requests', () => {
    fc.assert(
      fc.property(
        conversationArb(8, 2),
        fc.array(stepArb, { minLength: 2, maxLength: 14 }),
        planAtArb,
        eagerPolicyArb,
        maskArb,
        elidedDirArb,
        prefixPortArb,
        (requests, steps, planAt, policy, mask, elidedDir, commonPrefixLength) => {
          const frozen = pickBlocks(planOf(requestAt(requests, planAt).bytes, policy).map(frozenOf), mask);
          const s: Session = {
            cursor: 0,
            frozen,
            thinking: thinkingFor(requestAt(requests, planAt).bytes, frozen),
            missing: new Set(),
            elidedDir,
            memo: undefined,
          };
          for (const step of steps) {
            const body = bodyOf(step, requests, s, policy);
            const options = {
              elidedDir: s.elidedDir,
              sha256,
              isAvailable: (b: FrozenBlock) => !s.missing.has(b.sha256),
              thinking: s.thinking,
              isThinkingAvailable: (t: FrozenThinking) => !s.missing.has(t.sha256),
            };

            const indexed = indexIncrementally(body, s.memo, commonPrefixLength);
            const incremental = rewriteIncrementally(body, s.frozen, options, indexed);

            expect(indexed.outcome).toEqual(indexTranscript(body));
            expectSameOutcome(incremental.outcome, rewriteRequest(body, s.frozen, options), body);
            if (incremental.memo !== undefined) s.memo = incremental.memo;
          }
        },
      ),
    );
  });

  it('should take the incremental path on every request after the first rewrite while the client only grows the conversation', () => {
    fc.assert(
      fc.property(
        conversationArb(8, 3),
        planAtArb,
        eagerPolicyArb,
        maskArb,
        elidedDirArb,
        prefixPortArb,
        (requests, planAt, policy, mask, elidedDir, commonPrefixLength) => {
          const frozen = pickBlocks(planOf(requestAt(requests, planAt).bytes, policy).map(frozenOf), mask);
          const options = { elidedDir, sha256, thinking: thinkingFor(requestAt(requests, planAt).bytes, frozen) };
          let memo: RewriteMemo | undefined;
          for (const request of requests) {
            const indexed = indexIncrementally(request.bytes, memo, commonPrefixLength);
            const incremental = rewriteIncrementally(request.bytes, frozen, options, indexed);

            expectSameOutcome(incremental.outcome, rewriteRequest(request.bytes, frozen, options), request.bytes);
            if (memo !== undefined) {
              expect(incremental.path).toBe('incremental');
              // The client only edits its previous last message: the scan resumes at most one message back.
              expect(indexed.resumed?.messageCount).toBeGreaterThanOrEqual(memo.inputIndex.index.messages.length - 1);
            }
            if (incremental.memo !== undefined) memo = incremental.memo;
          }
        },
      ),
    );
  });
});
