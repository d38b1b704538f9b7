import { describe, expect, it } from 'vitest';
import { exactText, lenientText } from '../../../src/core/shed/text-of.js';
import { utf8 } from './shed-bodies.js';

const token = (json: string) => ({ body: utf8(json), span: { start: 0, end: utf8(json).length } });

describe('exactText', () => {
  it('should keep a leading U+FEFF, which is text and no byte order mark (found by shed-pins)', () => {
    const bom = token('"\ufeff[ctxshed:goal] x"');

    expect(exactText(bom.body, bom.span)).toBe('\ufeff[ctxshed:goal] x');
  });

  it('should decode escapes, and refuse a lone surrogate', () => {
    const plain = token('"a\\n\\u00e9"');
    const lone = token('"\\ud800"');

    expect(exactText(plain.body, plain.span)).toBe('a\né');
    expect(exactText(lone.body, lone.span)).toBeUndefined();
  });
});

describe('lenientText', () => {
  it('should keep a lone surrogate, and give "" for what is no string', () => {
    const lone = token('"x\\ud800"');
    const bad = token('"\\q"');

    expect(lenientText(lone.body, lone.span)).toBe('x\ud800');
    expect(lenientText(bad.body, bad.span)).toBe('');
  });
});
