import { describe, expect, it } from 'vitest';
import { insertArgs } from '../../src/wrapper/insert-args.js';

describe('insertArgs', () => {
  it('should put the words before index at, keeping every other word', () => {
    expect(insertArgs(['claude', '-p', 'hi'], 1, ['--a=1'])).toEqual(['claude', '--a=1', '-p', 'hi']);
    expect(insertArgs(['claude'], 1, ['--a=1', '--b=2'])).toEqual(['claude', '--a=1', '--b=2']);
  });

  it('should refuse a position before the executable or past the end', () => {
    expect(() => insertArgs(['claude'], 0, ['x'])).toThrow(RangeError);
    expect(() => insertArgs(['claude'], 2, ['x'])).toThrow(RangeError);
  });
});
