import { describe, expect, it } from 'vitest';
import { applySplices } from '../../../../src/core/splices.js';
import { checkShed, type AppliedSpan } from '../../../../src/core/epochs/spans/check-spans.js';
import { bodyOf, mustIndex, prompt, session, utf8 } from '../../shed/shed-bodies.js';

const STUB = utf8('{"role":"user","content":"stub"}');

/** The body with messages [first, last] replaced by `stub`, and the record of it. */
function spliced(body: Uint8Array, first: number, last: number, stub = STUB): { out: Uint8Array; applied: AppliedSpan[] } {
  const index = mustIndex(body);
  const out = applySplices(body, [{ start: index.messages[first]!.start, end: index.messages[last]!.end, bytes: stub }]);
  return { out, applied: [{ first, last, stub }] };
}

describe('checkShed', () => {
  it('should pass a splice that replaced a span by its stub before an assistant message', () => {
    const body = bodyOf(session(10));
    const { out, applied } = spliced(body, 1, 8);

    expect(checkShed(body, mustIndex(body), out, applied)).toBeUndefined();
  });

  it('should fail a stub followed by a user message, or preceded by a tool_use', () => {
    const body = bodyOf(session(10));
    const afterUser = spliced(body, 1, 7);
    const afterCall = spliced(body, 2, 8);

    expect(checkShed(body, mustIndex(body), afterUser.out, afterUser.applied)).toMatch(/not an assistant message/);
    expect(checkShed(body, mustIndex(body), afterCall.out, afterCall.applied)).toMatch(/tool_use right before a stub/);
  });

  it('should fail output that does not hold the stub it claims, or changed other bytes', () => {
    const body = bodyOf(session(10));
    const { out, applied } = spliced(body, 1, 8);
    const wrongStub = [{ ...applied[0]!, stub: utf8('{"role":"user","content":"other"}') }];
    const touched = applySplices(out, [{ start: out.length - 3, end: out.length - 2, bytes: utf8('x') }]);
    const index = mustIndex(body);
    const inHead = new TextDecoder().decode(out).indexOf('Please');

    expect(checkShed(body, index, out, wrongStub)).toMatch(/does not hold the stub/);
    expect(checkShed(body, index, touched, applied)).toMatch(/after "messages" changed|does not index/);
    expect(checkShed(body, index, applySplices(out, [{ start: inHead, end: inHead + 1, bytes: utf8('Q') }]), applied)).toMatch(/changed/);
    expect(checkShed(body, index, utf8('{'), applied)).toMatch(/does not index/);
    expect(checkShed(body, index, out, [])).toMatch(/changed|more messages/);
  });

  it('should accept consecutive stubs, the last one followed by an assistant message', () => {
    const body = bodyOf([prompt('a'), ...session(12).slice(1)]);
    const index = mustIndex(body);
    const a = utf8('{"role":"user","content":"one"}');
    const b = utf8('{"role":"user","content":"two"}');
    const out = applySplices(body, [
      { start: index.messages[1]!.start, end: index.messages[4]!.end, bytes: a },
      { start: index.messages[5]!.start, end: index.messages[8]!.end, bytes: b },
    ]);

    expect(
      checkShed(body, index, out, [
        { first: 1, last: 4, stub: a },
        { first: 5, last: 8, stub: b },
      ]),
    ).toBeUndefined();
  });
});
