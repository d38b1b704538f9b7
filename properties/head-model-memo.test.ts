/**
 * `readBodyModelResumed`, the window's read of a conversation's next body from where the walk of
 * its last one stops agreeing with it (core/head-model-memo.ts): whatever memo it is handed, of
 * this conversation's earlier bodies, edited or not, it must read the model `readBodyModel` reads
 * from scratch, the last top-level one, and never throw.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readBodyModel } from '../src/core/head-model.js';
import { readBodyModelResumed, type ModelMemo } from '../src/core/head-model-memo.js';
import { conversationArb } from './arbitraries/index.js';
import { applyByteEdit, byteEditArb } from './arbitraries/mutations.js';
import { commonPrefixLength, utf8 } from './support/bytes.js';

/** What may happen to a body before it is read: nothing, a `model` added after `messages`, a byte edit. */
const changeArb = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ kind: 'none' as const }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom('"claude-opus-5-5"', '"claude-opus-5-6"', '"claude-sonnet-4-5"', '5', 'null').map((value) => ({ kind: 'tail' as const, value })),
  },
  { weight: 2, arbitrary: byteEditArb.map((edit) => ({ kind: 'edit' as const, edit })) },
  // An edit among the last bytes: the members after `messages`, which a memo may vouch for.
  { weight: 1, arbitrary: fc.tuple(byteEditArb, fc.nat(24)).map(([edit, back]) => ({ kind: 'edit-tail' as const, edit, back })) },
);
type Change = typeof changeArb extends fc.Arbitrary<infer C> ? C : never;

function changed(body: Uint8Array, change: Change): Uint8Array {
  if (change.kind === 'none') return body;
  if (change.kind === 'edit') return applyByteEdit(body, change.edit);
  if (change.kind === 'edit-tail') return applyByteEdit(body, { ...change.edit, at: Math.max(0, body.length - 1 - change.back) });
  const close = body.lastIndexOf(0x7d);
  if (close < 0) return body;
  const member = utf8(`,"model":${change.value}`);
  const out = new Uint8Array(body.length + member.length);
  out.set(body.subarray(0, close));
  out.set(member, close);
  out.set(body.subarray(close), close + member.length);
  return out;
}

describe('readBodyModelResumed', () => {
  it('should read the model a walk from scratch reads, from any memo of the conversation, and never throw', () => {
    fc.assert(
      fc.property(conversationArb(6, 1), fc.array(changeArb, { minLength: 1, maxLength: 8 }), fc.nat(), (requests, changes, skip) => {
        let memo: ModelMemo | undefined;
        requests.forEach((request, i) => {
          // Now and then a memo is lost, as the cache drops one.
          if ((i + skip) % 5 === 4) memo = undefined;
          const body = changed(request.bytes, changes[i % changes.length]!);
          const read = readBodyModelResumed(body, memo, commonPrefixLength);
          expect(read.model).toBe(readBodyModel(body));
          memo = read.memo ?? memo;
        });
      }),
    );
  });
});
