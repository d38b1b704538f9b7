import { describe, expect, it } from 'vitest';
import { readBodyModelResumed, type ModelMemo } from '../../src/core/head-model-memo.js';
import { commonPrefixLengthLoop } from '../../src/core/common-prefix.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const read = (text: string, memo?: ModelMemo) => readBodyModelResumed(bytes(text), memo, commonPrefixLengthLoop);

const TURN_1 = '{"model":"claude-sonnet-4-5","messages":[{"role":"user","content":"a"},{"role":"assistant","content":"b"}],"tools":[1,2]}';
const TURN_2 =
  '{"model":"claude-sonnet-4-5","messages":[{"role":"user","content":"a"},{"role":"assistant","content":"b"},{"role":"user","content":"c"}],"tools":[1,2]}';

describe('readBodyModelResumed', () => {
  it('should read the model from scratch and keep where each message ends', () => {
    const first = read(TURN_1);

    expect(first.model).toBe('claude-sonnet-4-5');
    expect(first.memo?.messageEnds).toEqual([TURN_1.indexOf('},{') + 1, TURN_1.indexOf('}],') + 1]);
    expect(first.memo?.tailModel).toBeUndefined();
  });

  it('should resume after the messages both bodies share, counting the shared ones as scanned', () => {
    const second = read(TURN_2, read(TURN_1).memo);

    expect(second.model).toBe('claude-sonnet-4-5');
    expect(second.memo?.messageEnds).toHaveLength(3);
  });

  it("should read a model after messages as the API does, the last one, whether the tail is the memo's or new", () => {
    const withTail = (text: string, member: string): string => `${text.slice(0, -1)},${member}}`;
    const memo = read(withTail(TURN_1, '"model":"claude-opus-5-5"')).memo;

    expect(memo?.tailModel).toEqual({ value: 'claude-opus-5-5' });
    expect(read(withTail(TURN_2, '"model":"claude-opus-5-5"'), memo).model).toBe('claude-opus-5-5');
    expect(read(TURN_2, memo).model).toBe('claude-sonnet-4-5');
    expect(read(withTail(TURN_2, '"model":5'), memo).model).toBeUndefined();
  });

  it('should see a change before messages, and read a body that is not JSON as undefined, never throwing', () => {
    const memo = read(TURN_1).memo;

    expect(read(TURN_2.replace('sonnet', 'haiku'), memo).model).toBe('claude-haiku-4-5');
    expect(read(TURN_2.slice(0, -1), memo)).toEqual({ model: undefined, memo: undefined });
    expect(read('[]', memo)).toEqual({ model: undefined, memo: undefined });
    // A number's end is decided by the byte after it: a message that only grew its digits is scanned again.
    const numbers = read('{"model":"m","messages":[1,2]}').memo;
    expect(read('{"model":"m","messages":[1,23,"x"}', numbers).model).toBeUndefined();
    expect(read('{"model":"m","messages":[1,23],"model":"n"}', numbers).model).toBe('n');
  });
});
