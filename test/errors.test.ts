import { describe, expect, it } from 'vitest';
import { errorText, isRecord, outwardMessage } from '../src/errors.js';

describe('errorText', () => {
  it("should give an error's message, and any other thrown value as text", () => {
    expect(errorText(new Error('boom'))).toBe('boom');
    expect(errorText('plain')).toBe('plain');
    expect(errorText(undefined)).toBe('undefined');
  });
});

describe('isRecord', () => {
  it('should accept plain objects only', () => {
    expect([{}, { a: 1 }, null, [], 'x', 1].map(isRecord)).toEqual([true, true, false, false, false, false]);
  });
});

describe('outwardMessage', () => {
  it('should add the ctxshed: prefix exactly once', () => {
    expect(outwardMessage('could not write /x')).toBe('ctxshed: could not write /x');
    expect(outwardMessage('ctxshed: could not write /x')).toBe('ctxshed: could not write /x');
  });
});
