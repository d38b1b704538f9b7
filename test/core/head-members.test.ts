import { describe, expect, it } from 'vitest';
import { shortText, walkHeadMembers } from '../../src/core/head-members.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('walkHeadMembers', () => {
  it('should visit the keys in order, each with its value offset, and stop where a visit says', () => {
    const body = bytes(' { "a" : 1, "b":[2], "c": {"d": 3} }');
    const seen: string[] = [];

    const answer = walkHeadMembers(body, (key, at) => {
      seen.push(`${key}@${String.fromCharCode(body[at]!)}`);
      return key === 'b' ? { answer: at } : undefined;
    });

    expect(seen).toEqual(['a@1', 'b@[']);
    expect(answer).toBe(body.indexOf(0x5b));
  });

  it('should give undefined at the end of the object, for a head that is not an object, and for bytes that are not JSON', () => {
    const never = (): undefined => undefined;

    expect(walkHeadMembers(bytes('{"a":1}'), never)).toBeUndefined();
    expect(walkHeadMembers(bytes('[1]'), () => ({ answer: 1 }))).toBeUndefined();
    expect(walkHeadMembers(bytes('{"a":tru'), never)).toBeUndefined();
  });
});

describe('shortText', () => {
  it('should decode a short string token, escapes included, and refuse a long or invalid one', () => {
    expect(shortText(bytes('"\\u006dodel"'), 0, 12)).toBe('model');
    expect(shortText(bytes(`"${'x'.repeat(70)}"`), 0, 72)).toBeUndefined();
    expect(shortText(new Uint8Array([0x22, 0xff, 0x22]), 0, 3)).toBeUndefined();
  });
});
