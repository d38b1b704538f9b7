/**
 * The reading of a refusal as too long (core/estimate-overflow.ts): a count the refusal named is
 * kept as it is, never marked; a count it did not name is estimated, always marked, always over
 * the limit the API held the request against, and never a fraction or a negative.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { overflowReadingOf } from '../src/core/estimate-overflow.js';

const count = fc.integer({ min: 1, max: 10_000_000 });
const inputArb = fc.record({
  window: count,
  sentBytes: fc.nat({ max: 100_000_000 }),
  last: fc.option(fc.record({ contextTokens: fc.nat({ max: 10_000_000 }), requestBytes: fc.nat({ max: 100_000_000 }) }), { nil: undefined }),
});

describe('overflowReadingOf', () => {
  it('should keep a named count as it is, unmarked', () => {
    fc.assert(
      fc.property(count, fc.option(count, { nil: undefined }), inputArb, (tokens, limit, input) => {
        const reading = overflowReadingOf(limit === undefined ? { tokens } : { tokens, limit }, input);

        expect(reading).toEqual(limit === undefined ? { tokens } : { tokens, limit });
      }),
    );
  });

  it('should estimate a count it did not name as a whole number over the limit, marked estimated', () => {
    fc.assert(
      fc.property(fc.option(count, { nil: undefined }), inputArb, (limit, input) => {
        const reading = overflowReadingOf(limit === undefined ? {} : { limit }, input);

        expect(reading.estimated).toBe(true);
        expect(Number.isSafeInteger(reading.tokens)).toBe(true);
        expect(reading.tokens).toBeGreaterThan(limit ?? input.window);
        expect(reading.limit).toBe(limit);
      }),
    );
  });
});
