import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/state/sha256-hex.js';

describe('sha256Hex', () => {
  it('should print what sha256sum prints', () => {
    // printf 'abc' | sha256sum
    expect(sha256Hex(Buffer.from('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('should hash only the bytes of a view, not its whole buffer', () => {
    const whole = Buffer.from('xxabcxx');
    expect(sha256Hex(whole.subarray(2, 5))).toBe(sha256Hex(Buffer.from('abc')));
  });
});
