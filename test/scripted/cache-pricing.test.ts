import { describe, expect, it } from 'vitest';
import { commonPrefixLength, countTokens, priceRequest, UNCACHED_INPUT_TOKENS } from '../../src/scripted/cache-pricing.js';

const bytes = (s: string): Buffer => Buffer.from(s, 'utf8');

describe('commonPrefixLength', () => {
  it.each([
    { a: '', b: 'abc', n: 0 },
    { a: 'abc', b: 'abc', n: 3 },
    { a: 'abcd', b: 'abxd', n: 2 },
    { a: 'ab', b: 'abcdef', n: 2 },
  ])('should find $n shared bytes in "$a" and "$b"', ({ a, b, n }) => {
    expect(commonPrefixLength(bytes(a), bytes(b))).toBe(n);
  });
});

describe('priceRequest', () => {
  it('should write the whole first request to the cache', () => {
    expect(priceRequest(undefined, bytes('x'.repeat(400)))).toEqual({
      input_tokens: UNCACHED_INPUT_TOKENS,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 100,
    });
  });

  it('should read the shared prefix from the cache and write the rest', () => {
    const previous = bytes(`${'a'.repeat(800)}OLD`);
    const next = bytes(`${'a'.repeat(800)}${'b'.repeat(400)}`);

    expect(priceRequest(previous, next)).toMatchObject({ cache_read_input_tokens: 200, cache_creation_input_tokens: 100 });
  });
});

describe('countTokens', () => {
  it('should round a partial token up, as count_tokens answers', () => {
    expect(countTokens(bytes('x'.repeat(4001)))).toBe(1001);
    expect(countTokens(bytes(''))).toBe(0);
  });
});
