import { describe, expect, it } from 'vitest';
import { commonPrefixLength, priceRequest, UNCACHED_INPUT_TOKENS } from '../../src/demo/cache-pricing.js';

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
